"""Office documents to PDF with LibreOffice: a warm pool, and a one-shot fallback.

Starting LibreOffice costs seconds; converting with a running one costs a fraction of
that. A :class:`Converter` is one ``soffice --headless`` with its own profile directory,
listening on a private UNO pipe, driven by a small worker (``uno_worker.py``) that runs
under a Python with LibreOffice's ``uno`` module (Debian's ``/usr/bin/python3`` with
``python3-uno``). A :class:`ConversionService` keeps a pool of them: each request
borrows one, a request that takes longer than its timeout kills that converter (and
its soffice) and is answered with an error, and a dead converter is replaced on next
use, so one hostile document never stalls the others. Without ``uno`` the service
falls back to one-shot ``soffice --convert-to pdf`` (each in a fresh profile).

Inputs are copied into a private folder first: LibreOffice then never touches (or
locks) the caller's file, and odd file names cannot confuse it.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
import zipfile
from functools import lru_cache
from pathlib import Path

WORKER = Path(__file__).with_name("uno_worker.py")
OFFICE_SUFFIXES = {".pptx", ".ppt", ".odp", ".docx", ".doc", ".odt", ".rtf", ".xlsx", ".xls", ".ods", ".csv"}
MAX_UNZIPPED = 512 * 1024 * 1024  # a document that inflates beyond this is refused (zip bombs)
MAX_RATIO = 200  # ... or that compresses better than this


class RenderError(Exception):
    """A document that cannot be rendered, and why (never a crash of the service)."""


@lru_cache(maxsize=1)
def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


@lru_cache(maxsize=1)
def uno_python() -> str | None:
    """A Python that can ``import uno`` ($EGOEVAL_UNO_PYTHON, Debian's, LibreOffice's own)."""
    candidates = [os.environ.get("EGOEVAL_UNO_PYTHON"), "/usr/bin/python3", "/usr/lib/libreoffice/program/python"]
    for exe in filter(None, candidates):
        if Path(exe).exists():
            ok = subprocess.run([exe, "-c", "import uno"], capture_output=True, timeout=30).returncode == 0
            if ok:
                return exe
    return None


def precheck(path: Path) -> None:
    """Refuse what would only hurt the converter: missing, empty, or a zip bomb."""
    if not path.is_file():
        raise RenderError(f"{path.name}: no such file")
    if path.stat().st_size == 0:
        raise RenderError(f"{path.name}: empty file (0 bytes)")
    if path.suffix.lower() in (".pptx", ".docx", ".xlsx", ".odp", ".odt", ".ods"):
        try:
            with zipfile.ZipFile(path) as z:
                inflated = sum(i.file_size for i in z.infolist())
        except (zipfile.BadZipFile, OSError) as exc:
            if _is_encrypted(path):
                raise RenderError(f"{path.name}: the document is password-protected") from None
            raise RenderError(f"{path.name}: not a valid {path.suffix} file (broken zip: {exc})") from None
        if inflated > MAX_UNZIPPED or inflated > MAX_RATIO * max(1, path.stat().st_size):
            raise RenderError(f"{path.name}: refused, it inflates to {inflated:,} bytes (a zip bomb?)")


def _is_encrypted(path: Path) -> bool:
    """Password-protected OOXML files are OLE compound files holding an EncryptedPackage."""
    with open(path, "rb") as fh:
        head = fh.read(1 << 20)
    return head[:8] == bytes.fromhex("d0cf11e0a1b11ae1") and "EncryptedPackage".encode("utf-16-le") in head


def _kill_group(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


class Converter:
    """One warm soffice and its UNO worker (see the module docstring)."""

    def __init__(self, root: Path, python: str, start_timeout: float = 60.0) -> None:
        self.root = root
        self.profile = root / f"profile-{uuid.uuid4().hex[:8]}"
        self.pipe = f"egoeval_{uuid.uuid4().hex}"
        self.python = python
        self.start_timeout = start_timeout
        self.office: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.answers: queue.Queue = queue.Queue()
        self.version = ""
        self.next_id = 0

    def start(self) -> None:
        exe = soffice()
        if exe is None:
            raise RenderError("LibreOffice is not installed (Debian: apt-get install libreoffice-impress "
                              "libreoffice-writer libreoffice-calc)")
        self.office = subprocess.Popen(
            [exe, "--headless", "--invisible", "--nologo", "--norestore", "--nodefault", "--nolockcheck",
             f"-env:UserInstallation={self.profile.as_uri()}", f"--accept=pipe,name={self.pipe};urp;"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.worker = subprocess.Popen([self.python, str(WORKER), self.pipe, str(self.start_timeout)],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                       text=True, start_new_session=True)
        threading.Thread(target=self._read, args=(self.worker,), daemon=True).start()
        ready = self._answer(0, self.start_timeout)
        if not ready.get("ok"):
            self.close()
            raise RenderError(f"LibreOffice did not start: {ready.get('error')}")
        self.version = ready.get("version", "")

    def _read(self, worker: subprocess.Popen) -> None:
        for line in worker.stdout:  # type: ignore[union-attr]
            try:
                self.answers.put(json.loads(line))
            except ValueError:
                pass
        self.answers.put({"id": None, "ok": False, "error": "the converter process ended"})

    def _answer(self, rid: int, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return {"id": rid, "ok": False, "error": "timeout", "timeout": True}
            try:
                answer = self.answers.get(timeout=left)
            except queue.Empty:
                continue
            if answer.get("id") in (rid, None):
                return answer

    def alive(self) -> bool:
        return all(p is not None and p.poll() is None for p in (self.office, self.worker))

    def request(self, op: dict, timeout: float) -> dict:
        self.next_id += 1
        rid = self.next_id
        try:
            self.worker.stdin.write(json.dumps({"id": rid, **op}) + "\n")  # type: ignore[union-attr]
            self.worker.stdin.flush()  # type: ignore[union-attr]
        except (BrokenPipeError, OSError, AttributeError):
            return {"id": rid, "ok": False, "error": "the converter process ended"}
        return self._answer(rid, timeout)

    def close(self) -> None:
        for proc in (self.worker, self.office):
            _kill_group(proc)
        shutil.rmtree(self.profile, ignore_errors=True)


class ConversionService:
    """A pool of warm converters; thread-safe. ``size`` converters at most."""

    def __init__(self, size: int = 2, timeout: float = 60.0, root: str | Path | None = None) -> None:
        self.size, self.timeout = size, timeout
        self.root = Path(root or tempfile.mkdtemp(prefix="egoeval-office-"))
        self.python = uno_python()
        self.idle: queue.Queue = queue.Queue()
        self.lock = threading.Lock()
        self.started = 0
        self.closed = False
        self.restarts = 0

    @property
    def warm(self) -> bool:
        """Whether conversions go to long-lived LibreOffice processes (else one-shot)."""
        return self.python is not None

    def _borrow(self) -> Converter:
        with self.lock:
            if self.idle.empty() and self.started < self.size:
                self.started += 1
                fresh = True
            else:
                fresh = False
        if fresh:
            conv = Converter(self.root, self.python)  # type: ignore[arg-type]
            try:
                conv.start()
            except Exception:
                with self.lock:
                    self.started -= 1
                raise
            return conv
        conv = self.idle.get()
        if not self.healthy(conv):  # crashed or stuck since its last job: replace it
            conv.close()
            self.restarts += 1
            conv = Converter(self.root, self.python)  # type: ignore[arg-type]
            conv.start()
        return conv

    @staticmethod
    def healthy(conv: Converter) -> bool:
        """Alive, and answering a ping within seconds (a hung LibreOffice does not)."""
        return conv.alive() and bool(conv.request({"op": "ping"}, 10.0).get("ok"))

    def _give_back(self, conv: Converter, broken: bool) -> None:
        if broken:
            conv.close()
            self.restarts += 1
            with self.lock:
                self.started -= 1
            return
        self.idle.put(conv)

    def version(self) -> str:
        """The LibreOffice version (from a warm converter, or ``soffice --version``)."""
        return libreoffice_version()

    def recalc(self, src: str | Path, out: str | Path, timeout: float | None = None) -> Path:
        """A copy of the spreadsheet ``src`` with every formula computed by LibreOffice (xlsx)."""
        src, out = Path(src), Path(out)
        precheck(src)
        if not self.warm:
            raise RenderError("computing formulas needs LibreOffice's Python UNO bridge (Debian: python3-uno)")
        limit = timeout or self.timeout
        with tempfile.TemporaryDirectory(dir=self.root, prefix="job-") as tmp:
            private = Path(tmp) / f"book{src.suffix.lower()}"
            shutil.copyfile(src, private)
            made = Path(tmp) / "computed.xlsx"
            self._job({"op": "recalc", "src": str(private), "out": str(made)}, limit, src.name)
            if not made.exists():
                raise RenderError(f"{src.name}: LibreOffice produced no spreadsheet")
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(made, out)
        return out

    def to_pdf(self, src: str | Path, out: str | Path, timeout: float | None = None) -> Path:
        """Convert ``src`` to the PDF ``out``; raises :class:`RenderError` with the reason."""
        src, out = Path(src), Path(out)
        precheck(src)
        if src.suffix.lower() not in OFFICE_SUFFIXES:
            raise RenderError(f"{src.name}: cannot render {src.suffix or 'files without a type'} "
                              f"(documents: {', '.join(sorted(OFFICE_SUFFIXES))}; or a .pdf)")
        limit = timeout or self.timeout
        with tempfile.TemporaryDirectory(dir=self.root, prefix="job-") as tmp:
            private = Path(tmp) / f"document{src.suffix.lower()}"
            shutil.copyfile(src, private)
            made = Path(tmp) / "document.pdf"
            if self.warm:
                self._job({"op": "pdf", "src": str(private), "out": str(made)}, limit, src.name)
            else:
                oneshot_pdf(private, Path(tmp), limit, src.name)
            if not made.exists() or made.stat().st_size == 0:
                raise RenderError(f"{src.name}: LibreOffice produced no PDF")
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(made, out)
        return out

    def _job(self, op: dict, limit: float, name: str) -> None:
        conv = self._borrow()
        answer = conv.request(op, limit)
        broken = answer.get("timeout") or not conv.alive() or answer.get("id") is None
        self._give_back(conv, bool(broken))
        if answer.get("timeout"):
            raise RenderError(f"{name}: conversion timed out after {limit:g} s (the converter was restarted)")
        if not answer.get("ok"):
            raise RenderError(f"{name}: {answer.get('error') or 'conversion failed'}")

    def close(self) -> None:
        self.closed = True
        while not self.idle.empty():
            self.idle.get().close()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> "ConversionService":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def oneshot_pdf(src: Path, out_dir: Path, timeout: float, name: str | None = None) -> Path:
    """``soffice --convert-to pdf`` in a fresh profile; killed (whole group) on timeout."""
    exe = soffice()
    if exe is None:
        raise RenderError("LibreOffice is not installed (Debian: apt-get install libreoffice-impress "
                          "libreoffice-writer libreoffice-calc)")
    with tempfile.TemporaryDirectory(prefix="egoeval-profile-") as profile:
        proc = subprocess.Popen([exe, "--headless", "--norestore", "--nologo", "--nolockcheck",
                                 f"-env:UserInstallation={Path(profile).as_uri()}", "--convert-to", "pdf",
                                 "--outdir", str(out_dir), str(src)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise RenderError(f"{name or src.name}: conversion timed out after {timeout:g} s") from None
    pdf = out_dir / f"{src.stem}.pdf"
    if not pdf.exists():
        raise RenderError(f"{name or src.name}: LibreOffice could not convert it (unknown or broken format)")
    return pdf


@lru_cache(maxsize=1)
def libreoffice_version() -> str:
    exe = soffice()
    if exe is None:
        return "absent"
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    parts = out.split()
    return parts[1] if len(parts) > 1 else out.strip() or "unknown"


@lru_cache(maxsize=1)
def fonts_fingerprint() -> str:
    """A hash of the installed font files: renders differ when fonts do."""
    import hashlib

    try:
        out = subprocess.run(["fc-list", "--format", "%{file}\\n"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return hashlib.sha256("\n".join(sorted(set(out.split("\n")))).encode()).hexdigest()[:16]
