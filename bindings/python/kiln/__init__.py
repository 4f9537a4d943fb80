"""kiln: an ML compiler and runtime modelled on IREE.

kiln.runtime runs compiled modules (.kmod); kiln.compiler compiles MLIR and
ONNX into them. Both mirror iree.runtime / iree.compiler's names so that a
script ports by renaming the imports.
"""

__version__ = "0.1.0"
