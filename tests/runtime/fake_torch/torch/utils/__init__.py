from . import _python_dispatch  # noqa: F401
from . import checkpoint  # noqa: F401
