"""The one description of the machine a benchmark ran on, printed beside its figures."""

import os
import platform
from pathlib import Path


def describe() -> str:
    """CPU model and count, OS and Python, e.g. ``Intel Xeon … x2 | Linux-6… | Python 3.11.7``."""
    cpu = platform.processor() or platform.machine() or "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        models = [
            line for line in cpuinfo.read_text().splitlines() if line.startswith("model name")
        ]
        if models:
            cpu = models[0].split(":", 1)[1].strip()
    return f"{cpu} x{os.cpu_count()} | {platform.platform()} | Python {platform.python_version()}"
