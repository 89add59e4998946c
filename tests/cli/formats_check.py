#!/usr/bin/env python3
"""Check flashbench's JSON and CSV output against its text output.

formats_check.py json TEXT JSON   every row and verdict of the JSON document,
                                  formatted as flashbench formats numbers,
                                  is the matching line of the text output
formats_check.py csv CSV          every table has consistent columns
formats_check.py csvrows CSV JSON every CSV data line is the JSON's next row,
                                  value for value
formats_check.py status JSON S    the document parses and its status is S
Prints one line per problem; exit status 1 when there is one.
"""
import csv
import json
import math
import sys


def scaled(v, step, units, tail, sign=""):
    i = 0
    while i < len(units) - 1:
        shown = float("%.3g" % v)
        if v < step and shown < 1000:
            break
        v /= step
        i += 1
    fmt = "%s%.0f%s%s" if v >= 1000 else "%s%.3g%s%s"
    return fmt % (sign, v, units[i], tail)


def fmt_size(b):
    return scaled(float(b), 1024.0, ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"], "")


def fmt_rate(r):
    if r is None or not r >= 0 or math.isinf(r):
        r = 0.0
    return scaled(r, 1000.0, ["B", "K", "M", "G", "T"], "/s")


def fmt_time(ns):
    sign = ""
    if ns < 0:
        sign, ns = "-", -ns
    return scaled(ns, 1000.0, ["ns", "µs", "ms", "s"], "", sign)


def mbs(bps):
    if bps is None:
        return "-"
    m = bps / 1e6
    return "%.0f" % m if m >= 100 else "%.1f" % m if m >= 10 else "%.2f" % m


def row_text(rec):
    """The text line of a row record, for the tables whose format is known."""
    t = rec["table"]
    if t == "align":
        return "align %d\tpre %s\ton %s\tpost %s\tdiff %s" % (
            rec["boundary_bytes"], fmt_time(rec["pre_ns"]), fmt_time(rec["on_ns"]),
            fmt_time(rec["post_ns"]), fmt_time(rec["diff_ns"]))
    if t == "open-au":
        return "%s\t%s" % (fmt_size(rec["block_bytes"]), fmt_rate(rec["rate_bps"]))
    if t == "find-fat":
        return "\t".join([fmt_size(rec["block_bytes"])] + [fmt_rate(r) for r in rec["rate_bps"]])
    if t == "find-open-au":
        return "%s\t%s\tslowest %s" % (fmt_size(rec["block_bytes"]), fmt_rate(rec["rate_bps"]),
                                      fmt_rate(rec["slowest_bps"]))
    if t == "sfdisk":
        return rec["line"]
    if t == "app-class":
        if rec["request_bytes"] == 524288:
            return "%s\t%s\t%s in %s" % (rec["figure"], fmt_rate(rec["rate_bps"]),
                                        fmt_size(rec["bytes"]), fmt_time(rec["time_ns"]))
        return "%s\t%.0f IOPS\t%d requests in %s" % (rec["figure"], rec["iops"], rec["requests"],
                                                    fmt_time(rec["time_ns"]))
    if t == "scatter":
        return "%s\t%s" % (("%g" % (rec["offset_bytes"] / 1048576.0)), "%g" % (rec["time_ns"] / 1e6))
    if t == "interval":
        return "%s\t%s" % (fmt_size(rec["size_bytes"]), fmt_time(rec["time_ns"]))
    if t == "readahead":
        cells = ["%10s" % mbs(r) for r in rec["rate_bps"]]
        cells += ["%10s" % ("-" if c is None else "%.1f" % c) for c in rec["cpu_pct"]]
        return "%s%6s %s" % ("==> " if rec["plateau"] else "    ", fmt_size(rec["size_bytes"]),
                              " ".join(cells))
    if t == "queue-depth":
        mm = "  (%.0f..%.0f)" % (rec["iops_min"], rec["iops_max"])
        return "%5d %9.0f %-19s %8.1f %9s %9s %9s" % (
            rec["depth"], rec["iops"], mm, rec["rate_bps"] / 1e6, fmt_time(rec["p50_ns"]),
            fmt_time(rec["p99_ns"]), fmt_time(rec["max_ns"]))
    if t in ("queue-depth-step", "readahead-step", "open-au-step"):
        words = {"significant": "significant", "within_spread": "within the spread of the runs",
                 "within_noise": "within noise", "too_few_runs": "too few runs to judge"}
        pct = math.copysign(math.floor(abs(rec["change_pct"]) + 0.5), rec["change_pct"]) + 0.0
        if t == "queue-depth-step":
            a, b = "%d" % rec["from_depth"], "%d" % rec["to_depth"]
        else:
            a, b = fmt_size(rec["from_bytes"]), fmt_size(rec["to_bytes"])
        return "%s -> %s: %+.0f%%, %s" % (a, b, pct, words[rec["verdict"]])
    if t == "info":
        v = rec["value"]
        if rec["fact"].endswith("_bytes") and v.isdigit() and int(v) >= 1024:
            v = "%s (%s)" % (v, fmt_size(int(v)))
        return "%-31s %s" % (rec["fact"], v)
    if t == "capacity":
        head = "blocks"
        if rec.get("whole_bytes"):
            head = "blocks: %s whole from 0B, then" % fmt_size(rec["whole_bytes"])
        return ("round %d: %d %s %s apart from %s: %d bad (%d wrapped, %d dropped, "
                "%d other), first bad at %s") % (
            rec["round"], rec["blocks"], head, fmt_size(rec["spacing_bytes"]),
            fmt_size(rec["start_bytes"]), rec["bad"], rec["wrapped"], rec["dropped"],
            rec["other"], fmt_size(rec["first_bad_bytes"]) if rec["bad"] else "-")
    if t == "sustained":
        return "%.2fs\tat %s\t%s\t%s\tp99 %s\tmax %s" % (
            rec["elapsed_ns"] / 1e9, fmt_size(rec["offset_bytes"]), fmt_size(rec["bytes"]),
            fmt_rate(rec["rate_bps"]), fmt_time(rec["p99_ns"]), fmt_time(rec["max_ns"]))
    if t == "sustained-summary":
        return ("%s in %s: average %s, initial %s, sustained %s; "
                "latency p50 %s p99 %s p99.9 %s max %s") % (
            fmt_size(rec["written_bytes"]), fmt_time(rec["elapsed_ns"]),
            fmt_rate(rec["average_bps"]), fmt_rate(rec["initial_bps"]),
            fmt_rate(rec["sustained_bps"]), fmt_time(rec["p50_ns"]), fmt_time(rec["p99_ns"]),
            fmt_time(rec["p999_ns"]), fmt_time(rec["max_ns"]))
    if t == "sustained-verify":
        tail = "usable up to %s" % fmt_size(rec["usable_bytes"])
        if rec.get("scattered_bytes"):
            tail = "%s written at random over %s: no usable size known" % (
                fmt_size(rec["scattered_bytes"]), fmt_size(rec["region_bytes"]))
        return ("read back %d blocks: %d bad (%d wrapped, %d misplaced, %d dropped, "
                "%d corrupt), first bad at %s, %s") % (
            rec["blocks"], rec["bad"], rec["wrapped"], rec["misplaced"], rec["dropped"],
            rec["corrupt"], fmt_size(rec["first_bad_bytes"]) if rec["bad"] else "-", tail)
    return None


# The column headers of the tables that have one: text lines with no record.
HEADERS = {"readahead": "size", "queue-depth": "depth"}


def check_json(text_path, json_path):
    bad = 0
    with open(text_path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f]
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    records = [r for t in doc["tests"] for r in t["records"]]
    at = 0
    for rec in records:
        if rec["type"] == "row":
            want = row_text(rec)
        elif rec["type"] == "verdict":
            want = "%s: %s" % (rec.get("label", "verdict"), rec["text"])
        else:
            want = rec["text"]
        # header lines (readahead) appear only in the text
        while at < len(lines) and want is not None and lines[at] != want and \
                rec["type"] == "row" and rec["table"] in HEADERS and \
                lines[at].split()[:1] == [HEADERS[rec["table"]]]:
            at += 1
        if at >= len(lines):
            print("json record %r has no text line left" % rec)
            return 1
        if want is not None and lines[at] != want:
            print("text line %d %r, but the JSON record gives %r" % (at + 1, lines[at], want))
            bad += 1
        at += 1
    if at != len(lines):
        print("%d text lines but %d JSON records" % (len(lines), at))
        bad += 1
    return 1 if bad else 0


def check_csv(path):
    bad = 0
    width = None
    tables = 0
    with open(path, encoding="utf-8", newline="") as f:
        for n, row in enumerate(csv.reader(f), 1):
            if not row:
                width = None
                continue
            if row[0].startswith("#"):
                continue
            if width is None:
                width = len(row)
                tables += 1
                continue
            if len(row) != width:
                print("csv line %d has %d columns, its header %d" % (n, len(row), width))
                bad += 1
    if tables == 0:
        print("csv: no table")
        bad += 1
    return 1 if bad else 0


def same_cell(cell, value):
    """A CSV cell against the JSON value of the same field."""
    if isinstance(value, bool):
        return cell == ("true" if value else "false")
    if isinstance(value, (int, float)):
        try:
            got = float(cell)
        except ValueError:
            return False
        return got == value or abs(got - value) <= 1e-12 * max(abs(got), abs(value))
    if value is None:
        return cell == ""
    return cell == str(value)


def check_csv_rows(csv_path, json_path):
    """Every CSV data line is the JSON's next row, value for value, in order."""
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    rows = [r for t in doc["tests"] for r in t["records"] if r["type"] == "row"]
    at = 0
    header = False
    with open(csv_path, encoding="utf-8", newline="") as f:
        for n, line in enumerate(csv.reader(f), 1):
            if not line or line[0].startswith("#"):
                header = header or (line and line[0].startswith("# table: "))
                continue
            if header:  # the line of field names
                header = False
                continue
            if at >= len(rows):
                print("csv line %d: no JSON row left" % n)
                return 1
            values = []
            for k, v in rows[at].items():
                if k not in ("type", "table"):
                    values.extend(v if isinstance(v, list) else [v])
            if len(values) != len(line) or not all(map(same_cell, line, values)):
                print("csv line %d %r, the JSON row %d %r" % (n, line, at + 1, values))
                return 1
            at += 1
    if at != len(rows):
        print("%d CSV data lines, %d JSON rows" % (at, len(rows)))
        return 1
    return 0


def check_status(path, want):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    got = doc["status"]
    if got != want:
        print("status %r, want %r" % (got, want))
        return 1
    return 0


def main():
    mode = sys.argv[1]
    if mode == "json":
        return check_json(sys.argv[2], sys.argv[3])
    if mode == "csv":
        return check_csv(sys.argv[2])
    if mode == "csvrows":
        return check_csv_rows(sys.argv[2], sys.argv[3])
    if mode == "status":
        return check_status(sys.argv[2], sys.argv[3])
    print("usage: formats_check.py json TEXT JSON | csv CSV | csvrows CSV JSON | status JSON S")
    return 2


sys.exit(main())
