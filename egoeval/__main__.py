import sys

from egoeval.cli import main

sys.exit(main())
