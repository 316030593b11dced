"""The runtimes that compute the model's logits from the one shipped file (docs/backends.md).

- `onnxruntime` runs model.onnx as stored: the shipped graph is dynamic int8, whose
  activations are quantised with one scale per call, so the detector runs its windows
  one per call unless the graph declares itself batch-independent.
- `openvino` runs the same weights as an fp32 graph (fp32_graph.py), in bf16 where the
  CPU computes bf16 natively, in fp32 elsewhere. Nothing depends on the other rows of
  a call, so windows run in batches; bf16 results do move a little with the padded
  width, so each window is padded to a width fixed by its own length (`width_step`).
- `auto` is openvino where openvino imports and was measured faster (`openvino_measured_faster`:
  bf16 in AMX tiles, or an AMD CPU with AVX512-BF16), onnxruntime otherwise: on an Intel CPU with
  AVX512-BF16 alone OpenVINO's bf16 is slower than ONNX Runtime's int8 (docs/benchmarks.md).
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
import threading
from pathlib import Path

import numpy as np

from ..errors import ModelError

BACKENDS = ("auto", "onnxruntime", "openvino")
BF16_FLAGS = ("amx_bf16", "avx512_bf16")
CPUINFO = Path("/proc/cpuinfo")
# Set in model.onnx's metadata by a graph whose logits for a window depend neither on the other
# windows of its batch nor on padding (benchmarks/requantize.py per-token).
BATCH_INDEPENDENT_KEY = "alias_engine.batch_independent"
WIDTH_STEP = 32  # openvino: a window of n positions runs padded to n rounded up to a multiple of this
OPENVINO_MISSING = ("the openvino backend needs the openvino package (pip install openvino; wheels exist "
                    "for x86-64 Linux and Windows), or choose the onnxruntime backend")

_openvino_core = None
_openvino_lock = threading.Lock()


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity, e.g. under taskset or a container's cpuset)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no sched_getaffinity (macOS, Windows)
        return os.cpu_count() or 1


def check_backend(name: str) -> str:
    if name not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {name!r}")
    return name


def resolve_backend(name: str) -> str:
    """`onnxruntime` or `openvino`: the one `name` asks for, what `auto` means on this machine."""
    check_backend(name)
    if name == "auto":
        return "openvino" if openvino_measured_faster() else "onnxruntime"
    return name


def openvino_measured_faster() -> bool:
    """True where OpenVINO's bf16 ran the model faster than ONNX Runtime's int8, measured end to end
    against Presidio on hand-written text (docs/backends.md): the CPU computes bf16 natively and, where
    /proc/cpuinfo says, in AMX tiles (amx_bf16: 1.5x Presidio against 0.5x), or it is an AMD CPU with
    AVX512-BF16 (an EPYC of Zen 4: 0.85-0.93x against 0.68-0.72x). An Intel CPU with AVX512-BF16 and no
    AMX ran it slower (0.41x against 0.50x): ONNX Runtime there."""
    return native_bf16() and (not CPUINFO.exists() or bf16_pays())


def bf16_pays() -> bool:
    """Whether /proc/cpuinfo names a CPU where this model ran faster in bf16, under OpenVINO and in
    training alike: one with AMX tiles (amx_bf16), or an AMD one with AVX512-BF16 (Zen 4). On an Intel
    CPU with AVX512-BF16 alone both were slower than in int8 / fp32."""
    flags = cpu_bf16_flags()
    return "amx_bf16" in flags or ("avx512_bf16" in flags and cpu_vendor() == "AuthenticAMD")


def native_bf16() -> bool:
    """True when openvino imports and the CPU computes bf16 natively: OpenVINO says so, and
    so do the flags of /proc/cpuinfo where there is one."""
    core = openvino_core()
    if core is None or (CPUINFO.exists() and not cpu_bf16_flags()):
        return False
    return "BF16" in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES")


def cpu_bf16_flags() -> tuple[str, ...]:
    """Which of amx_bf16 and avx512_bf16 /proc/cpuinfo lists (none where there is no /proc/cpuinfo)."""
    flags = _cpuinfo_field("flags").split()
    return tuple(flag for flag in BF16_FLAGS if flag in flags)


def cpu_vendor() -> str:
    """/proc/cpuinfo's vendor_id ("GenuineIntel", "AuthenticAMD"; "" where there is none)."""
    return _cpuinfo_field("vendor_id").strip()


def _cpuinfo_field(name: str) -> str:
    """The value of the first processor's `name` line of /proc/cpuinfo ("" where there is none)."""
    try:
        lines = CPUINFO.read_text().splitlines()
    except OSError:
        return ""
    return next((line.split(":", 1)[1] for line in lines if line.split(":", 1)[0].strip() == name and ":" in line), "")


def runtime_summary(runtime, requested: str) -> dict:
    """Which backend runs the model and in what precision (None: rules only), what was asked
    for, and the CPU's bf16 flags and vendor (what `auto` goes by): for bench, eval and serve to say."""
    return {"backend": runtime.name if runtime else None, "precision": runtime.precision if runtime else None,
            "requested": requested, "cpu_bf16_flags": list(cpu_bf16_flags()), "cpu_vendor": cpu_vendor()}


def format_runtime_summary(summary: dict) -> str:
    """`model: openvino, bf16 (asked: auto; CPU bf16 flags: avx512_bf16; vendor: AuthenticAMD)`."""
    ran = f"{summary['backend']}, {summary['precision']}" if summary["backend"] else "none (rules only)"
    flags = " ".join(summary["cpu_bf16_flags"]) or "none"
    vendor = f"; vendor: {summary['cpu_vendor']}" if summary.get("cpu_vendor") else ""
    return f"model: {ran} (asked: {summary['requested']}; CPU bf16 flags: {flags}{vendor})"


def openvino_core():
    """One `openvino.Core` for the process; None when openvino cannot be imported."""
    global _openvino_core
    with _openvino_lock:
        if _openvino_core is None:
            try:
                import openvino
            except Exception:  # not installed, or its libraries do not load on this system
                return None
            _openvino_core = openvino.Core()
        return _openvino_core


def check_installed(name: str) -> None:
    """ModelError when `name` is openvino and openvino cannot be imported."""
    if name == "openvino" and openvino_core() is None:
        raise ModelError(OPENVINO_MISSING)


def load_backend(name: str, model_path: Path, threads: int):
    """The model at `model_path` run by backend `name` (onnxruntime or openvino) with `threads` threads a call."""
    check_installed(name)
    if name == "openvino":
        return OpenVinoBackend(model_path, threads, "bf16" if native_bf16() else "f32")
    return OnnxRuntimeBackend(model_path, threads)


class OnnxRuntimeBackend:
    """model.onnx in an ONNX Runtime session, as stored (int8 for the shipped model)."""

    name = "onnxruntime"
    precision = "as stored"
    width_step = None  # windows run at their own length, a batch padded to its longest

    def __init__(self, model_path: Path, threads: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        # A 128-token window is too small a call to keep the session's threads busy: the windows of
        # a text run two calls at once on them (bench 13-20 % more chars/s on 2 cores of a Zen 3,
        # docs/benchmarks.md "Session 50"; more at once was not measured, and callers that already
        # run several texts at once, the proxy's pool, would multiply them), and a text of one window
        # still has them all. The logits do not depend on how many calls run.
        self.calls_at_once = min(threads, 2)
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Threads that spin while waiting for work burn the cores that other processes on the
        # machine need: with spinning on, the engine ran at about half the speed of spinning
        # off on a shared machine (docs/benchmarks.md). Off, a waiting thread sleeps.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.add_session_config_entry("session.inter_op.allow_spinning", "0")
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:
            raise ModelError(f"cannot load {model_path}: {type(exc).__name__}: {str(exc)[:200]}") from None
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.outputs = {o.name for o in self.session.get_outputs()}
        meta = self.session.get_modelmeta().custom_metadata_map
        self.batch_independent = meta.get(BATCH_INDEPENDENT_KEY) == "true"

    def run(self, input_ids: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
        (logits,) = self.session.run(["logits"], {"input_ids": input_ids, "attention_mask": attention_mask})
        return logits


class OpenVinoBackend:
    """The fp32 graph of model.onnx compiled by OpenVINO for the CPU, in `precision` (bf16 or f32).

    Thread-safe: each thread has its own infer request. Calls from several threads run at
    once: one stream of `threads` threads for each `threads` of the cores this process may use.
    """

    name = "openvino"
    batch_independent = True
    width_step = WIDTH_STEP
    calls_at_once = 1  # its streams run the threads of a call

    def __init__(self, model_path: Path, threads: int, precision: str) -> None:
        streams = max(1, available_cores() // threads)
        self.precision = precision
        # Pinned threads of several processes (batch workers) would share the same cores.
        config = {"INFERENCE_PRECISION_HINT": precision, "PERFORMANCE_HINT": "LATENCY",
                  "NUM_STREAMS": streams, "INFERENCE_NUM_THREADS": streams * threads, "ENABLE_CPU_PINNING": False}
        self.compiled = compiled_model(openvino_core(), Path(model_path), config)
        self.inputs = {name for port in self.compiled.inputs for name in port.get_names()}
        self.outputs = {name for port in self.compiled.outputs for name in port.get_names()}
        self._requests = threading.local()

    def run(self, input_ids: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
        request = getattr(self._requests, "request", None)
        if request is None:
            request = self._requests.request = self.compiled.create_infer_request()
        return request.infer({"input_ids": input_ids, "attention_mask": attention_mask})["logits"]


def compiled_model(core, model_path: Path, config: dict):
    """`model_path` as an fp32 graph compiled with `config`, from the cache when it was compiled before.

    The cache (cache_file) is keyed by the model file's digest, the openvino version and
    the CPU; one that cannot be read or written costs time, never an error.
    """
    cache = cache_file(core, model_path, config["INFERENCE_PRECISION_HINT"])
    if cache is not None and cache.is_file():
        try:
            return core.import_model(cache.read_bytes(), "CPU", config)
        except Exception:  # truncated, or written by another build: compile again
            pass
    try:
        model = core.read_model(io.BytesIO(fp32_graph_bytes(model_path)))
        compiled = core.compile_model(model, "CPU", config)
    except ModelError:
        raise
    except Exception as exc:
        raise ModelError(f"cannot compile {model_path} with openvino: {type(exc).__name__}: {str(exc)[:200]}") from None
    if cache is not None:
        _write_quietly(cache, compiled.export_model)
    return compiled


def fp32_graph_bytes(model_path: Path) -> bytes:
    """model.onnx with its int8 MatMuls made fp32 (fp32_graph.py), serialised."""
    try:
        import onnx
    except ImportError:
        raise ModelError("the openvino backend needs the onnx package (pip install onnx)") from None
    from .fp32_graph import dequantize, has_batch_quantisation

    try:
        model = dequantize(onnx.load(str(model_path)))
    except Exception as exc:
        raise ModelError(f"cannot load {model_path}: {type(exc).__name__}: {str(exc)[:200]}") from None
    if has_batch_quantisation(model):
        raise ModelError(f"{model_path} quantises activations per batch in a way the openvino backend cannot "
                         "undo; use the onnxruntime backend")
    return model.SerializeToString()


def cache_file(core, model_path: Path, precision: str) -> Path | None:
    """$XDG_CACHE_HOME/alias-engine/openvino/<model digest>-<precision>-<openvino and CPU>.blob (None: no home)."""
    import openvino

    try:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        digest = hashlib.sha256()
        with open(model_path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except (OSError, RuntimeError):  # RuntimeError: no home folder
        return None
    machine = "\n".join([openvino.get_version(), core.get_property("CPU", "FULL_DEVICE_NAME"),
                         *core.get_property("CPU", "OPTIMIZATION_CAPABILITIES")])
    machine_digest = hashlib.sha256(machine.encode()).hexdigest()[:12]
    return base / "alias-engine" / "openvino" / f"{digest.hexdigest()[:24]}-{precision}-{machine_digest}.blob"


def _write_quietly(path: Path, export) -> None:
    """Write what `export()` gives (bytes or BytesIO) to `path` whole (a temporary file renamed),
    or nothing when that fails."""
    tmp = None
    try:
        data = export()
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as f:
            tmp = Path(f.name)
            f.write(data.getbuffer() if isinstance(data, io.BytesIO) else data)
        os.replace(tmp, path)
    except Exception:  # a cache is an optimisation: a full disk or a failed export is no error
        if tmp is not None:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
