# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Shared helpers for the integration tests."""
import os


class SkipTest(Exception):
    """Raised by a test that cannot run here; counted as skipped."""


TDTOP = os.environ.get("TDTOP", os.path.join(os.path.dirname(__file__), "..", "..", "tdtop"))
HELPERS = os.environ.get("HELPERS", "")
