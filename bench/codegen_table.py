#!/usr/bin/env python3
"""Ratio table of kiln's generated GEMM-family kernels (tests/gpu/codegen_gemm.sh's JSON) against
their peers measured in the same run: cuBLAS (and the unfused cuBLAS sequences for the fused
kernels), Triton (bench/triton_peers.py's JSON, when given), and for GEMM + row sum the generated
plain GEMM of the same shape. Prints a markdown table and the issue's targets with a verdict.

A case may carry mapping overrides (bench/codegen_cases.txt: --tunable=..., --pipeline=...,
--cluster=...): cases of one kind, shape and dtype are then alternative mappings of the same
problem, and each target takes the best of them per shape (as cuBLAS picks a kernel per shape),
with the default mapping alone also stated. f16 cases (--dtype=bf16=f16) get their own verdicts.

Usage: bench/codegen_table.py CODEGEN_JSON [TRITON_JSON] [--md OUT.md] [--cases CASES.txt]
"""
import argparse
import json
import math

KIND_OF_TRITON = {"gemm": "gemm", "dual_gemm_swiglu": "dual", "gemm_rowsum": "rowsum"}


def shape(r):
    s = f"{r['M']}x{r['N']}x{r['K']}"
    return f"{r['batch']}x{s}" if r["batch"] > 1 else s


def is_small(r):
    return "small" in r["case"].split("_")


def ragged(r):
    return r["M"] % 128 or r["N"] % 256 or r["K"] % 64


def in_issue_set(r):
    """The issue's GEMM shapes: squares 4096-8192 and LLM shapes (M = 4096..16384 tokens, N and
    K from 4096 up); others (e.g. split-K's few-tiles-long-K case) are reported, not counted."""
    return 4096 <= r["M"] <= 16384 and r["N"] >= 4096 and r["K"] >= 4096


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


# Programs that compute another program's kind with a different host variant (a split-K GEMM
# is a GEMM): their cases are alternative mappings of that kind's shapes.
VARIANT_PROGRAMS = {"gemm_splitk"}


def load_case_flags(path):
    """NAME -> (its example program, its flags in the cases file, one token each)."""
    flags = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if words and not words[0].startswith("#"):
                flags[words[0]] = (words[1], words[3:])
    return flags


def mapping_of(example, flags):
    """The mapping overrides among a case's flags, and the variant program if it is one ('' for
    the program's own mapping)."""
    words = [f"{example}.kiln"] if example in VARIANT_PROGRAMS else []
    words += [f for f in flags if not f.startswith(("--dtype", "--epilogue"))]
    return " ".join(words)


def load_triton(path):
    if not path:
        return {}
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for c in doc.get("cases", doc if isinstance(doc, list) else []):
        if c.get("status", "ok") == "ok":
            out[(c["kind"], c["M"], c["N"], c["K"])] = c
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("codegen")
    ap.add_argument("triton", nargs="?")
    ap.add_argument("--md")
    ap.add_argument("--cases", default="bench/codegen_cases.txt")
    a = ap.parse_args()
    case_flags = load_case_flags(a.cases)
    with open(a.codegen) as f:
        rows = json.load(f)
    triton = load_triton(a.triton)
    for r in rows:
        r.setdefault("dtype", "bf16")
        r["mapping"] = mapping_of(*case_flags.get(r["case"], ("", [])))
    plain = {(r["dtype"], r["M"], r["N"], r["K"]): r for r in rows
             if r["kind"] == "gemm" and not r["case"].endswith("_direct") and not r["mapping"]}
    by_case = {r["case"]: r for r in rows}
    lines = ["| case | kind | dtype | shape | mapping overrides | correct | kiln TFLOP/s | vs cuBLAS-family peers | vs Triton | notes |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    # target -> (dtype, shape) -> [(ratio, from the default mapping)]
    ratios = {}

    def note(target, r, ratio):
        ratios.setdefault(target, {}).setdefault((r["dtype"], shape(r)), []).append(
            (ratio, not r["mapping"]))
    wrong = []
    for r in rows:
        if r["bad"]:
            wrong.append(r["case"])
        peers = ", ".join(f"{p['peer']} {p['ratio']:.2f}x" for p in r["peers"])
        t = triton.get((KIND_OF_TRITON.get(r["kind"], ""), r["M"], r["N"], r["K"])) \
            if r["dtype"] == "bf16" else None
        vs_triton = f"{t['triton_ms'] / r['kiln_ms']:.2f}x" if t else "–"
        notes = []
        direct = r["case"].endswith("_direct")
        twin = by_case.get(r["case"] + "_direct")
        if twin:
            notes.append(f"{twin['kiln_ms'] / r['kiln_ms']:.3f}x its direct-store twin")
            if not is_small(r):
                note("tma_vs_direct", r, twin["kiln_ms"] / r["kiln_ms"])
        p = plain.get((r["dtype"], r["M"], r["N"], r["K"]))
        if r["kind"] == "gemm_rowsum" and p and not direct:
            notes.append(f"{p['kiln_ms'] / r['kiln_ms']:.2f}x the generated plain GEMM")
            if not is_small(r):
                note("rowsum_plain", r, p["kiln_ms"] / r["kiln_ms"])
        notes = "; ".join(notes)
        lines.append(f"| {r['case']} | {r['kind']} | {r['dtype']} | {shape(r)} | {r['mapping'] or '–'} | "
                     f"{'yes' if not r['bad'] else 'NO'} | "
                     f"{r['kiln_tflops']:.0f} | {peers} | {vs_triton} | {notes} |")
        if is_small(r) or direct:
            continue
        first = r["peers"][0]["ratio"]
        if r["kind"] == "gemm":
            counted = ragged(r) or in_issue_set(r)
            note(("gemm_ragged" if ragged(r) else "gemm") if counted else "gemm_other", r, first)
            if t:
                note("gemm_triton", r, t["triton_ms"] / r["kiln_ms"])
        elif r["kind"] == "batched_gemm":
            note("batched", r, first)
        elif r["kind"] == "dual_gemm_swiglu":
            note("dual_unfused", r, r["ratio_vs_best_peer"])
            if t:
                note("dual_triton", r, t["triton_ms"] / r["kiln_ms"])
        elif r["kind"] == "gemm_rowsum" and t:
            note("rowsum_triton", r, t["triton_ms"] / r["kiln_ms"])

    def verdict(name, target, goal, how="min", dtype="bf16"):
        per_shape = {k: v for k, v in ratios.get(target, {}).items() if k[0] == dtype}
        if not per_shape:
            return f"- {name} ({dtype}): not measured"
        pick = geomean if how == "geomean" else min
        best = pick([max(x for x, _ in v) for v in per_shape.values()])
        text = (f"- {name} ({dtype}): {how} {best:.3f} over {len(per_shape)} shapes (goal ≥ {goal}): "
                f"{'met' if best >= goal else 'NOT met'}")
        if any(not default for v in per_shape.values() for _, default in v):
            defaults = [max((x for x, d in v if d), default=float("nan")) for v in per_shape.values()]
            text += (f" — best mapping per shape; the programs' own mappings alone: "
                     f"{pick(defaults):.3f}")
        return text

    lines += ["", "Targets (issue 5; ratios > 1 mean kiln is faster):"]
    for dtype in sorted({r["dtype"] for r in rows}):
        lines += [
            verdict("GEMM vs cuBLAS, the issue's square and LLM shapes", "gemm", 1.0, "geomean", dtype),
            verdict("GEMM vs cuBLAS, no shape below", "gemm", 0.9, "min", dtype),
            verdict("GEMM vs cuBLAS, shapes that are not tile multiples", "gemm_ragged", 0.8, "min", dtype),
            verdict("batched GEMM vs cuBLAS strided-batched", "batched", 0.95, "min", dtype),
            verdict("dual GEMM + SwiGLU vs the best unfused cuBLAS sequence", "dual_unfused", 1.1, "min", dtype),
            verdict("GEMM + row sum vs the generated plain GEMM", "rowsum_plain", 0.95, "min", dtype),
            verdict("GEMM vs cuBLAS, other shapes (not an issue target)", "gemm_other", 0.0, "min", dtype)]
    lines += [verdict("dual GEMM + SwiGLU vs Triton", "dual_triton", 1.3),
              verdict("GEMM + row sum vs Triton", "rowsum_triton", 1.5),
              verdict("GEMM vs Triton (for reference)", "gemm_triton", 1.0, "geomean"),
              verdict("TMA-store epilogue (default) vs direct stores (same kernels)", "tma_vs_direct", 1.0, "geomean"),
              f"- correctness: {'every case matched its float64 reference' if not wrong else 'WRONG: ' + ', '.join(wrong)}"]
    text = "\n".join(lines)
    print(text)
    if a.md:
        with open(a.md, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
