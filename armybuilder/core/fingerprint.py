"""List fingerprints: a short code proving a printed roster matches its file.

The hash covers the list's canonical content (its validated model as sorted JSON,
so comments, key order and quoting do not matter) plus the catalogue id, version and
content hash, so the same list checked against changed data gets another code.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def content_hash(value: Any, length: int = 16) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()[:length]


def fingerprint(list_content: Any, catalogue_id: str, version: str, catalogue_hash: str) -> str:
    """A 12-character code in three groups, e.g. ``K3QF-7ZPA-M2XD``.

    Base32 avoids characters that read alike on paper (no 0/O, 1/I/L confusion
    beyond the alphabet's own), which matters when an organiser types it back.
    """
    payload = canonical_json(
        {"list": list_content, "catalogue": [catalogue_id, version, catalogue_hash]}
    )
    digest = hashlib.sha256(payload.encode("utf-8")).digest()
    code = base64.b32encode(digest).decode("ascii")[:12]
    return "-".join(code[i : i + 4] for i in range(0, 12, 4))
