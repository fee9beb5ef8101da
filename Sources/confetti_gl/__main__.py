"""`python -m confetti_gl …` and the `confetti` command a wheel installs: the confetti program
that comes inside the wheel, with the arguments given (`confetti run -- make`, `confetti render`,
`confetti --help`)."""

import os
import sys

from . import program


def main() -> None:
    found = program()
    if found is None or not os.access(found, os.X_OK):
        sys.exit("confetti: this installation of confetti_gl has no confetti program: install "
                 "the wheel (sh .ci/wheel, then pip install dist/confetti_gl-*.whl), or name one in "
                 "$CONFETTI_PROGRAM")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(found, [str(found)] + sys.argv[1:])


if __name__ == "__main__":
    main()
