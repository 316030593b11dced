"""`python tests/_cli.py ARGS...`: `alias-engine ARGS` with new vaults at scrypt 2^10 (or
2^$SUITE_SCRYPT_LOG2_N), for tests that run the CLI in a subprocess. The cost can only be
lowered by code: this file is the suite's, not the package's."""

import os
import sys

from alias_engine.cli import main
from alias_engine.pseudonymise import vault

vault.SCRYPT_LOG2_N = int(os.environ.get("SUITE_SCRYPT_LOG2_N", "10"))
sys.exit(main(sys.argv[1:]))
