"""Prints the TPC-DS query texts of Spark's tests jar as one JSON line {id: text} (preflight fallback).

Usage: jar_query_texts.py <jar> [<jar> ...]  -- the first jar that exists is read.
Reads the `tpcds/` folder (q1.sql .. q99.sql, 103 variants); texts are read at run time and
never copied into the repository (docs/protocol.md §1). Progress goes to stderr; the JSON
object is the last stdout line. Exits 2 when no jar exists or the folder holds no texts.
"""
import json
import os
import re
import sys
import zipfile


def main(argv):
    for jar in argv:
        if not os.path.isfile(jar):
            print(f"jar_query_texts: {jar}: not found", file=sys.stderr)
            continue
        texts = {}
        with zipfile.ZipFile(jar) as z:
            for name in z.namelist():
                m = re.fullmatch(r"tpcds/(q\d+[ab]?)\.sql", name)
                if m:
                    texts[m.group(1)] = z.read(name).decode("utf-8")
        if not texts:
            print(f"jar_query_texts: {jar}: no tpcds/*.sql entries", file=sys.stderr)
            sys.exit(2)
        print(f"jar_query_texts: {len(texts)} texts from {jar}", file=sys.stderr)
        print(json.dumps(texts))
        return
    print("jar_query_texts: none of the jars exists: " + ", ".join(argv), file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
