#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Runs every test_* function of tests/integration/test_*.py (or those whose
name contains argv[1]) and prints one line each, then "N passed, N failed"."""
import importlib.util
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main():
    pattern = sys.argv[1] if len(sys.argv) > 1 else ""
    # TDTEST_EXCLUDE=a,b: skip tests whose name contains a or b
    exclude = [x for x in os.environ.get("TDTEST_EXCLUDE", "").split(",") if x]
    passed = failed = skipped = 0
    for fname in sorted(os.listdir(HERE)):
        if not (fname.startswith("test_") and fname.endswith(".py")):
            continue
        spec = importlib.util.spec_from_file_location(fname[:-3], os.path.join(HERE, fname))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for name in sorted(n for n in dir(mod) if n.startswith("test_")):
            full = f"{fname[:-3]}.{name}"
            if pattern not in full:
                continue
            if any(x in full for x in exclude):
                skipped += 1
                print(f"skip {full}: excluded from this run (TDTEST_EXCLUDE)", flush=True)
                continue
            t0 = time.monotonic()
            try:
                getattr(mod, name)()
            except SkipTest as e:
                skipped += 1
                print(f"skip {full}: {e}", flush=True)
                continue
            except Exception:
                failed += 1
                print(f"FAIL {full} ({time.monotonic() - t0:.1f}s)", flush=True)
                traceback.print_exc(file=sys.stdout)
                continue
            passed += 1
            print(f"ok   {full} ({time.monotonic() - t0:.1f}s)", flush=True)
    tail = f", {skipped} skipped" if skipped else ""
    print(f"{passed} passed, {failed} failed{tail}")
    return 1 if failed else 0


from tdtest import SkipTest  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
