"""A small LSP client over the server's stdio, for the Python-driven tests (scaling, valgrind).
The LSP behaviour itself is tested with npm client libraries in tests/lsp; this only needs to
send requests and wait for answers. Every read has a deadline, so a silent server fails the
test instead of hanging it."""
import json
import os
import select
import subprocess

# Diagnostics at once, not after the typing pause: the tests wait for them.
SERVER_ENV = {"SRCLS_DEBOUNCE_MS": "0"}


class Server:
    def __init__(self, binary, wrapper=(), encodings=("utf-16",), env=None, timeout=120,
                 process=None):
        """Starts `wrapper... binary --stdio`, or talks to process, already started with pipes
        for its stdin and stdout (and SERVER_ENV in its environment)."""
        if process is None:
            process = subprocess.Popen(list(wrapper) + [binary, "--stdio"],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       env=dict(os.environ, **SERVER_ENV, **(env or {})))
        self.p = process
        self.timeout = timeout
        self.next_id = 1
        self.buffer = b""
        self.result = self.request("initialize", {
            "processId": None, "rootUri": None,
            "capabilities": {"general": {"positionEncodings": list(encodings)}}})
        self.notify("initialized", {})

    def send_bytes(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _fill(self):
        ready, _, _ = select.select([self.p.stdout], [], [], self.timeout)
        if not ready:
            raise SystemExit("the server did not answer within %d s" % self.timeout)
        chunk = os.read(self.p.stdout.fileno(), 1 << 20)
        if not chunk:
            raise SystemExit("the server closed the connection")
        self.buffer += chunk

    def recv(self):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        header, _, rest = self.buffer.partition(b"\r\n\r\n")
        length = [l for l in header.split(b"\r\n") if l.lower().startswith(b"content-length")]
        size = int(length[0].split(b":")[1])
        self.buffer = rest
        while len(self.buffer) < size:
            self._fill()
        body, self.buffer = self.buffer[:size], self.buffer[size:]
        return json.loads(body)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params=None, allow_error=False):
        rid = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        while True:
            m = self.recv()
            if m.get("id") == rid and "method" not in m:
                if "error" in m and not allow_error:
                    raise SystemExit("%s: %s" % (method, m["error"]))
                return m.get("result", m.get("error"))

    def wait_diagnostics(self, uri, version):
        while True:
            m = self.recv()
            if (m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri and m["params"].get("version") == version):
                return m["params"]["diagnostics"]

    def close(self):
        """shutdown, exit, and the exit status."""
        self.request("shutdown")
        self.send({"jsonrpc": "2.0", "method": "exit"})
        self.p.stdin.close()
        return self.p.wait(timeout=self.timeout)
