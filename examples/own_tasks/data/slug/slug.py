import re


def slugify(text):
    """'Hello, World!' -> 'hello-world'"""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return "-".join(words)
