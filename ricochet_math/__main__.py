"""``python -m ricochet_math``: the same as the ``ricochet`` command."""
from __future__ import annotations

from ricochet_math.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
