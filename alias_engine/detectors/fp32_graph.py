"""The fp32 graph of the shipped dynamic-int8 model: the same weights, no activation quantisation.

`quantize_dynamic` wrote each MatMul as DynamicQuantizeLinear (one scale for the
whole batch) → MatMulInteger with int8 weights → Cast → Mul by the two scales.
Here each such chain becomes one fp32 MatMul whose weights are the int8 values
times their scale: exactly the values the int8 graph multiplies by. OpenVINO
reads this graph (docs/backends.md); benchmarks/requantize.py writes it to a file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from onnx import ModelProto


def dequantize(model: ModelProto) -> ModelProto:
    """`model` (changed in place and returned) with every
    DynamicQuantizeLinear → MatMulInteger chain turned back into an fp32 MatMul."""
    from onnx import helper, numpy_helper

    graph = model.graph
    init = {t.name: t for t in graph.initializer}
    producer = {name: node for node in graph.node for name in node.output}
    consumers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    drop: set[int] = set()
    replace: dict[int, object] = {}
    weights = []
    for node in graph.node:
        dql = producer.get(node.input[0]) if node.op_type == "MatMulInteger" else None
        if dql is None or dql.op_type != "DynamicQuantizeLinear":
            continue
        _, w_q, _, w_zp = node.input
        (cast,) = consumers[node.output[0]]
        (mul,) = consumers[cast.output[0]]
        scales_mul = next(producer[name] for name in mul.input
                          if name in producer and producer[name].op_type == "Mul")
        w_scale = next(name for name in scales_mul.input if name in init)
        w = ((numpy_helper.to_array(init[w_q]).astype(np.float32)
              - numpy_helper.to_array(init[w_zp]).astype(np.float32)) * numpy_helper.to_array(init[w_scale]))
        name = w_q.removesuffix("_quantized")
        weights.append(numpy_helper.from_array(w.astype(np.float32), name))
        replace[id(node)] = helper.make_node("MatMul", [dql.input[0], name], [mul.output[0]], name=node.name + "_fp32")
        drop.update({id(dql), id(cast), id(mul), id(scales_mul)})
    nodes = [replace.get(id(node), node) for node in graph.node if id(node) not in drop]
    del graph.node[:]
    graph.node.extend(nodes)
    used = {name for node in graph.node for name in node.input}
    kept = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept + weights)
    del graph.value_info[:]
    return model


def has_batch_quantisation(model: ModelProto) -> bool:
    """True when a DynamicQuantizeLinear is left: one scale for a whole batch."""
    return any(node.op_type == "DynamicQuantizeLinear" for node in model.graph.node)
