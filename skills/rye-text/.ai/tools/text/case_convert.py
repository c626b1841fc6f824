# rye:signed:2026-11-22T11:57:12Z:3c7b2db0061f9879701ca8e177f1efce915a54146016b0d00408a483fa0c16fb:wXrSazcKVvsjZckoEUWon9C0R7gUjnR7Mzz17vu4wlAmvKOkPURA_ikbJJ5ocG-5FLKa11XdK3nraVOviuWnCQ:cac8635136c7a58a
"""Convert identifiers and phrases between naming conventions."""

import json
import re
import sys

__version__ = "1.0.0"
__tool_type__ = "python"
__executor_id__ = "rye/core/runtimes/python/function"
__category__ = "text"
__tool_description__ = "Convert text between snake_case, camelCase, PascalCase, kebab-case, CONSTANT_CASE and Title Case"

CONFIG_SCHEMA = {
    "type": "object",
    "properties": {
        "text": {
            "type": "string",
            "description": "Identifier or phrase to convert, e.g. 'userAccountId' or 'user account id'",
        },
        "to": {
            "type": "string",
            "description": "Target convention",
            "enum": ["snake", "camel", "pascal", "kebab", "constant", "title"],
        },
    },
    "required": ["text", "to"],
}

_BOUNDARY = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])|\d+")


def split_words(text: str) -> list:
    words = []
    for chunk in re.split(r"[\s_\-./]+", text.strip()):
        words.extend(w.lower() for w in _BOUNDARY.findall(chunk))
    return words


def execute(params: dict, project_path: str) -> dict:
    words = split_words(str(params.get("text", "")))
    if not words:
        return {"success": False, "error": "no words found in text"}
    to = params.get("to")
    if to == "snake":
        out = "_".join(words)
    elif to == "constant":
        out = "_".join(words).upper()
    elif to == "kebab":
        out = "-".join(words)
    elif to == "camel":
        out = words[0] + "".join(w.capitalize() for w in words[1:])
    elif to == "pascal":
        out = "".join(w.capitalize() for w in words)
    elif to == "title":
        out = " ".join(w.capitalize() for w in words)
    else:
        return {"success": False, "error": f"unknown convention {to!r}"}
    return {"success": True, "output": out, "words": words}


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--params", required=True)
    parser.add_argument("--project-path", required=True)
    args = parser.parse_args()
    print(json.dumps(execute(json.loads(args.params), args.project_path)))
    sys.exit(0)
