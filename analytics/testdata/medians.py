#!/usr/bin/env python3
"""Independent computation of every cell's medians for the golden test.

This script shares no code with the Go implementation. It reads the two
embedded capture CSVs with Python's csv module, applies the import keep rule
(note matches ^(sat-)?scale-\\d+c$ and ops_per_sec > 0), groups rows by cell
(session, engine, mode, cores_used, ratio, data_bytes, pipeline) and takes the
median of each metric with exact decimal arithmetic (decimal.Decimal; the
mean of the two middle values for an even count).

Regenerate the golden file with:
    python3 analytics/testdata/medians.py > analytics/testdata/medians.golden
(or `go test ./analytics -run TestGoldenMedians -update`, which runs this script).
"""
import csv
import re
import sys
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = [(HERE.parent / "dataset" / "runs-aws.csv", 1),
         (HERE.parent / "dataset" / "runs-session2-aws.csv", 2)]
KEEP = re.compile(r"^(sat-)?scale-\d+c$")
METRICS = ["ops_per_sec", "p50_ms", "p99_ms", "p999_ms", "kb_per_sec"]


def median(values):
    v = sorted(values)
    n = len(v)
    if n % 2 == 1:
        return v[n // 2]
    return (v[n // 2 - 1] + v[n // 2]) / 2


def main():
    cells = defaultdict(list)
    for path, session in FILES:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if not KEEP.match(row["note"]) or Decimal(row["ops_per_sec"]) <= 0:
                    continue
                key = (session, row["engine"], row["mode"], int(row["cores_used"]),
                       row["ratio"], int(row["data_bytes"]), int(row["pipeline"]))
                cells[key].append(row)
    print("# session engine mode cores ratio value_bytes pipeline reps " + " ".join(METRICS))
    for key in sorted(cells, key=lambda k: tuple(str(x).zfill(8) for x in k)):
        rows = cells[key]
        meds = [median([Decimal(r[m]) for r in rows]) for m in METRICS]
        fields = [str(x) for x in key] + [str(len(rows))] + [format(m.normalize(), "f") for m in meds]
        print(" ".join(fields))
    print(f"# {len(cells)} cells, {sum(len(r) for r in cells.values())} runs", file=sys.stderr)


if __name__ == "__main__":
    main()
