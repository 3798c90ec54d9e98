"""Smoke check (non-evaluative, recorded separately from the primary evaluation): does
solve(spark, tables) return a DataFrame whose schema Spark can analyse?

Same process layout and result line as exec_candidate.py in mode "smoke" (no output is
collected or written): `python smoke.py --candidate DIR --db DIR --settings JSON`.
"""
import sys

import exec_candidate

if __name__ == "__main__":
    exec_candidate.main(["--mode", "smoke", *sys.argv[1:]])
