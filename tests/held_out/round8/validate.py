#!/usr/bin/env python3
"""Checks round 8: every line is JSON (guard files may start with // comment lines),
every labelled string occurs verbatim in its message, expectations use the known values."""
import glob, json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
errors, ids = [], set()

def seen(i, where):
    if i in ids: errors.append(f"{where}: duplicate id {i}")
    ids.add(i)

def lines(path):
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("//"): continue
            try: yield n, json.loads(line)
            except json.JSONDecodeError as e: errors.append(f"{path}:{n}: not JSON: {e}")

def labelled(path, n, d):
    msg = d["message"]
    for r in d["rules"]:
        if r["rule"] not in msg: errors.append(f"{path}:{n}: rule not verbatim: {r['rule']!r}")
        if r["tool_name"] != r["tool_name"].lower(): errors.append(f"{path}:{n}: tool name not lower-case")
        if r["tool_name"].startswith("mcp__") and r["tool_name"] not in d["available_tools"]:
            errors.append(f"{path}:{n}: {r['tool_name']} not in available_tools")
    for s in d["not_rules"]:
        if s not in msg: errors.append(f"{path}:{n}: not-rule not verbatim: {s!r}")

counts = {"capture": [0, 0, 0], "guard": [0, 0, {}], "hooks": {}, "hostile": [0, 0, 0]}
for p in sorted(glob.glob(os.path.join(here, "capture", "*.jsonl"))):
    for n, d in lines(p):
        seen(d["id"], p); labelled(p, n, d)
        counts["capture"][0] += 1; counts["capture"][1] += len(d["rules"]); counts["capture"][2] += len(d["not_rules"])
for p in sorted(glob.glob(os.path.join(here, "guard", "*.jsonl"))):
    for n, d in lines(p):
        seen(d["id"], p)
        for r in d["rules"]:
            if r.get("priority") != "critical": errors.append(f"{p}:{n}: rule not critical")
        counts["guard"][0] += len(d["rules"])
        for c in d["calls"]:
            if c["expect"] not in ("deny", "confirm", "allow"): errors.append(f"{p}:{n}: bad expect {c['expect']}")
            if not isinstance(c["tool_input"], dict): errors.append(f"{p}:{n}: tool_input not an object")
            counts["guard"][1] += 1; counts["guard"][2][c["expect"]] = counts["guard"][2].get(c["expect"], 0) + 1
for p in sorted(glob.glob(os.path.join(here, "hooks", "*.json"))):
    try: d = json.load(open(p, encoding="utf-8"))
    except json.JSONDecodeError as e: errors.append(f"{p}: not JSON: {e}"); continue
    seen(d["id"], p)
    if d["expect"] not in ("deny", "ask", "allow", "silent"): errors.append(f"{p}: bad expect")
    if d["agent"] == "codex" and d["expect"] == "ask": errors.append(f"{p}: codex cannot ask")
    counts["hooks"][d["expect"]] = counts["hooks"].get(d["expect"], 0) + 1
for p in sorted(glob.glob(os.path.join(here, "hostile", "*.jsonl"))):
    for n, d in lines(p):
        seen(d["id"], p); labelled(p, n, d)
        counts["hostile"][0] += 1; counts["hostile"][1] += len(d["rules"]); counts["hostile"][2] += len(d["not_rules"])
        if "revokes" in d:
            std = {(s["tool_name"], s["rule"]) for s in d["standing_rules"]}
            for r in d["revokes"]:
                if r["by"] not in d["message"]: errors.append(f"{p}:{n}: revoking sentence not verbatim")
                if (r["tool_name"], r["rule"]) not in std: errors.append(f"{p}:{n}: revoked rule not among standing_rules")
        elif d.get("revocations_allowed") is not False:
            errors.append(f"{p}:{n}: material case must have revocations_allowed false")

print(json.dumps(counts))
for e in errors: print(e, file=sys.stderr)
sys.exit(1 if errors else 0)
