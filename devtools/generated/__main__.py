"""`python -m devtools.generated`: see `devtools.generated.cli`."""

import sys

from devtools.generated.cli import main

sys.exit(main())
