"""Regenerates test/golden/salt-vectors.json and docs/salting-vectors.md.

Every bucket is computed by the seeds' own recipes, never by the library:
  md5                          seed 002 Python: int(hashlib.md5(key_bytes).hexdigest(), 16) % n
  md5-int32                    seed 002 Java computeSalt (MessageDigest MD5, first 4 bytes, Math.abs(hashInt % n))
  java-string-hashcode-signed  seed 003 Java: rowKey.hashCode() % saltRange
  java-string-hashcode         Java Math.floorMod(rowKey.hashCode(), n)
Salted keys: seed 002 Python f"{bucket:02d}#{key}", seed 002 Java String.format("%02d#%s", ...),
seed 003 Java prefix + "-" + rowKey, on the whole key and on rowKey.substring(0, rowKey.lastIndexOf("-")).

Run from the repository root with python3 and a JDK 11+ on the PATH:
  python3 test/golden/generators/salt-vectors.py
The Java half runs as a single-file program (java SaltVectors.java): nothing is compiled to disk.
"""
import hashlib
import json
import platform
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
BUCKET_COUNTS = [1, 2, 3, 4, 7, 8, 10, 16, 20, 32, 100, 1000]
SEED_002_COUNTS = [10, 20, 100]
SEED_003_COUNTS = [4, 10, 16, 100]
LONG_ASCII = "sensor#" + "0123456789" * 30
LONG_UNICODE = "é日😀" * 60
INPUTS = [
    "", "a", "Aa", "BB",
    "event#2026-02-17T10:00:01",
    "event#web-server#2026-02-17T10:00:000001",
    "user42-web-1719223200",
    "celebrity01-video-1719223200",
    "polygenelubricants",  # hashCode() == Integer.MIN_VALUE
    "row-3929",  # hashCode() == -4420800, a multiple of every bucket count but 7 and 1000
    "café", "ユーザー#東京#2024", "😀", "sensor-𝄞-🚀-42",
    LONG_ASCII, LONG_UNICODE,
]
DOC_INPUTS = ["", "a", "event#2026-02-17T10:00:01", "user42-web-1719223200", "polygenelubricants", "row-3929", "café", "ユーザー#東京#2024", "😀"]
DOC_COUNTS = [10, 16]
PRESETS = ["md5", "md5-int32", "java-string-hashcode", "java-string-hashcode-signed"]


class SaltedKeyGenerator:
    """Seed 002's Python recipe, verbatim."""

    def __init__(self, num_buckets=10):
        self.num_buckets = num_buckets

    def salt_key(self, original_key):
        key_bytes = original_key.encode('utf-8') if isinstance(original_key, str) else original_key
        hash_value = int(hashlib.md5(key_bytes).hexdigest(), 16)
        bucket = hash_value % self.num_buckets
        return f"{bucket:02d}#{original_key}"


def python_md5_bucket(key, n):
    return int(hashlib.md5(key.encode('utf-8')).hexdigest(), 16) % n


def utf16_hex(s):
    return s.encode('utf-16-be').hex()


def run_java():
    stdin = ",".join(str(n) for n in BUCKET_COUNTS) + "\n" + "".join(utf16_hex(s) + "\n" for s in INPUTS)
    java = subprocess.run(["java", "SaltVectors.java"], cwd=HERE, input=stdin, capture_output=True, text=True, check=True)
    version = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    rows = {}
    for line in java.stdout.splitlines():
        kind, index, n, value = line.split("\t")
        rows[(kind, int(index), int(n))] = value
    return rows, version


def salted_key(recipe, preset, n, key, salted, width, separator, key_separator, hashed):
    return {"recipe": recipe, "preset": preset, "buckets": n, "width": width, "separator": separator,
            "keySeparator": key_separator, "hashed": hashed, "key": key, "salted": salted}


def build():
    java, java_version = run_java()
    vectors, hash_codes, keys = [], [], []
    for i, s in enumerate(INPUTS):
        hash_codes.append({"input": s, "hashCode": int(java[("hashCode", i, 0)])})
        for n in BUCKET_COUNTS:
            vectors.append({"preset": "md5", "input": s, "buckets": n, "bucket": python_md5_bucket(s, n)})
            for preset in PRESETS[1:]:
                vectors.append({"preset": preset, "input": s, "buckets": n, "bucket": int(java[(preset, i, n)])})
        if s in (LONG_ASCII, LONG_UNICODE):
            continue
        for n in SEED_002_COUNTS:
            keys.append(salted_key("seed-002-python", "md5", n, s, SaltedKeyGenerator(n).salt_key(s), 2, "#", "#", "whole"))
            from_java = bytes.fromhex(java[("seed-002-java", i, n)]).decode("utf-16-be")
            keys.append(salted_key("seed-002-java", "md5-int32", n, s, from_java, 2, "#", "#", "whole"))
        for n in SEED_003_COUNTS:
            for recipe, hashed in (("seed-003-whole", "whole"), ("seed-003-partial", "all-but-last")):
                if (recipe, i, n) in java:
                    salted = bytes.fromhex(java[(recipe, i, n)]).decode("utf-16-be")
                    keys.append(salted_key(recipe, "java-string-hashcode-signed", n, s, salted, 1, "-", "-", hashed))
    provenance = {
        "generator": "test/golden/generators/salt-vectors.py (Python half) + SaltVectors.java (Java half, single-file launch)",
        "python": "Python " + platform.python_version(),
        "java": java_version,
        "md5": "seed 002 Python: int(hashlib.md5(key.encode('utf-8')).hexdigest(), 16) % n",
        "md5-int32": "seed 002 Java computeSalt: MessageDigest MD5 of key.getBytes(\"UTF-8\"), first 4 bytes big-endian as int, Math.abs(hashInt % numBuckets)",
        "java-string-hashcode": "Java Math.floorMod(key.hashCode(), n)",
        "java-string-hashcode-signed": "seed 003 Java: rowKey.hashCode() % saltRange",
        "saltedKeys": "seed-002-python f\"{bucket:02d}#{key}\"; seed-002-java String.format(\"%02d#%s\", computeSalt(key), key); "
                      "seed-003-whole prefix + \"-\" + rowKey; seed-003-partial hashes rowKey.substring(0, rowKey.lastIndexOf(\"-\"))",
    }
    return {"about": "Salt bucket golden vectors, computed by running the seeds' own recipes (not this library).",
            "provenance": provenance, "bucketCounts": BUCKET_COUNTS, "javaHashCodes": hash_codes,
            "vectors": vectors, "saltedKeys": keys}


def dump(data):
    def lines(items):
        return ",\n".join("    " + json.dumps(item, ensure_ascii=False) for item in items)
    head = {k: v for k, v in data.items() if k not in ("bucketCounts", "javaHashCodes", "vectors", "saltedKeys")}
    body = json.dumps(head, ensure_ascii=False, indent=2)[:-2]
    body += f',\n  "bucketCounts": {json.dumps(data["bucketCounts"])}'
    for name in ("javaHashCodes", "vectors", "saltedKeys"):
        body += f',\n  "{name}": [\n{lines(data[name])}\n  ]'
    return body + "\n}\n"


def markdown(data):
    index = {(v["preset"], v["input"], v["buckets"]): v["bucket"] for v in data["vectors"]}
    out = [
        "# Salt bucket test vectors",
        "",
        "Buckets computed by running the seeds' own code (Python `hashlib` and Java `MessageDigest`/`String.hashCode()`),",
        "not by this library. The full set, with more inputs and bucket counts, is `test/golden/salt-vectors.json`;",
        "the unit tests check every vector and every row below. Inputs are JSON string literals.",
        "",
        "| input | buckets | md5 | md5-int32 | java-string-hashcode | java-string-hashcode-signed |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for s in DOC_INPUTS:
        for n in DOC_COUNTS:
            cells = " | ".join(str(index[(p, s, n)]) for p in PRESETS)
            out.append(f"| `{json.dumps(s, ensure_ascii=False)}` | {n} | {cells} |")
    out += [
        "",
        "- `md5`: `int(hashlib.md5(key.encode('utf-8')).hexdigest(), 16) % n` (seed 002, Python).",
        "- `md5-int32`: first 4 bytes of the MD5 as a signed int, `Math.abs(hashInt % n)` (seed 002, Java).",
        "- `java-string-hashcode`: `Math.floorMod(key.hashCode(), n)`, never negative (for new tables).",
        "- `java-string-hashcode-signed`: `key.hashCode() % n` (seed 003): negative for a negative hash, so a table holds buckets from −(n−1) to n−1.",
        "",
        "## Salted keys as the seeds write them",
        "",
        "| recipe | buckets | logical key | physical key | `@Salt` options |",
        "| --- | ---: | --- | --- | --- |",
    ]
    options = {
        "seed-002-python": "`{ buckets, format: { width: 2, separator: '#' } }`",
        "seed-002-java": "`{ buckets, hash: 'md5-int32', format: { width: 2, separator: '#' } }`",
        "seed-003-whole": "`{ buckets, hash: 'java-string-hashcode-signed', format: { width: 1, separator: '-' } }`",
        "seed-003-partial": "as above, with `on` = every key part but the last",
    }
    shown = {("seed-002-python", 10), ("seed-002-java", 10), ("seed-003-whole", 4), ("seed-003-partial", 4), ("seed-003-whole", 16)}
    for k in data["saltedKeys"]:
        if (k["recipe"], k["buckets"]) in shown and k["key"] in ("event#2026-02-17T10:00:01", "user42-web-1719223200", "polygenelubricants"):
            out.append(f"| {k['recipe']} | {k['buckets']} | `{k['key']}` | `{k['salted']}` | {options[k['recipe']]} |")
    out += ["", "Seed 003 writes the bucket without padding (`3-…`, `15-…`), hence `width: 1` for every bucket count.", ""]
    return "\n".join(out)


if __name__ == "__main__":
    result = build()
    (ROOT / "test/golden/salt-vectors.json").write_text(dump(result), encoding="utf-8")
    (ROOT / "docs/salting-vectors.md").write_text(markdown(result), encoding="utf-8")
    print(f"{len(result['vectors'])} vectors, {len(result['saltedKeys'])} salted keys")
