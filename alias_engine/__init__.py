"""alias-engine: find personal data in French and English text and mask it reversibly."""

from .detectors.base import Detector, FunctionDetector
from .engine import Engine
from .errors import AliasEngineError, InputError, MappingError, ModelError
from .labels import LABELS
from .masks import MaskResult
from .pseudonymise import Session
from .restore import unmask
from .spans import Span

__all__ = ["Engine", "Detector", "FunctionDetector", "Span", "MaskResult", "LABELS", "AliasEngineError", "InputError",
           "MappingError", "ModelError", "Session", "unmask"]
__version__ = "0.1.0"
