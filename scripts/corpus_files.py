"""Writing the corpus's files from the scripts that derive them (scripts/copy-cache-source.py,
scripts/page-cache-source.py): paths relative to the repository root, JSON indented by one with
a final newline, as the committed files are."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_json(rel_path, doc):
    """Writes `doc` to ROOT/rel_path; returns rel_path."""
    with open(os.path.join(ROOT, rel_path), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return rel_path
