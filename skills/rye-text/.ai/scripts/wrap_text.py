"""Handler for text/wrap-text: reads {params} JSON, prints {success, output}."""

import json
import sys
import textwrap


def wrap(text: str, width: int, indent: str) -> str:
    out = []
    for para in text.split("\n\n"):
        lines = para.splitlines()
        marker = ""
        if lines and lines[0].lstrip()[:2] in ("- ", "* "):
            marker = lines[0][: len(lines[0]) - len(lines[0].lstrip()) + 2]
        body = " ".join(l.strip() for l in lines)
        if marker:
            body = body[len(marker.strip()) + 1 :].lstrip()
        out.append(
            textwrap.fill(
                body,
                width=width,
                initial_indent=indent + marker,
                subsequent_indent=indent + " " * len(marker),
            )
        )
    return "\n\n".join(out)


if __name__ == "__main__":
    params = json.loads(sys.argv[1]) if len(sys.argv) > 1 else json.load(sys.stdin)
    text = params.get("text", "")
    print(json.dumps({"success": True, "output": wrap(text, int(params.get("width", 80)), params.get("indent", ""))}))
