"""egoeval: evaluate tool-using video-MLLM agents on egocentric tasks.

The package is one import namespace; each top-level folder of the repository is a
layer installed under it (``egoeval.tools``, ``egoeval.verifiers``, ...). Heavy
libraries are imported lazily so that ``egoeval --help`` starts fast.
"""

__version__ = "0.1.0"
