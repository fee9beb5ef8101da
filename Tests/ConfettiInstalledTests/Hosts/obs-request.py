#!/usr/bin/env python3
"""obs-request.py: sends requests to OBS Studio's obs-websocket (protocol 5) and prints the
answers, with Python's standard library alone: the WebSocket handshake and frames (RFC 6455)
written out here, as a Streamer.bot or Firebot would send them.

    python3 obs-request.py PORT [--wait SECONDS] [--password PASSWORD] < STEPS

STEPS (stdin) is a JSON list of steps, each a request or a batch:
    {"requestType": "PressInputPropertiesButton",
     "requestData": {"inputName": "Confetti", "propertyName": "fire"}}
    {"batch": [request, ...], "executionType": 1}       (1: one request a frame, as OBS draws)
A request may say "save": "shot.png": a screenshot's picture (GetSourceScreenshot's imageData,
a data: URL) is written there instead of printed.

stdout: a JSON list with each step's answer: {"requestType", "ok", "code", "comment", "data"}
(a batch's answer is a list of those). --wait keeps trying to connect for that many seconds
(OBS opens the port once it has loaded its scenes): for a start, not a fixed sleep. Exit status
0 once every answer came, whatever they say; 1 with a line on stderr when OBS could not be
reached or the connection broke.
"""

import base64
import hashlib
import json
import os
import socket
import struct
import sys
import time

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Closed(Exception):
    pass


class WebSocket:
    """A client's end of one WebSocket connection: text messages out (masked, as a client's
    must be), whole messages in (fragments joined, pings answered)."""

    def __init__(self, port, timeout):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.settimeout(timeout)
        self.buffer = b""
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: obswebsocket.json\r\n\r\n"
            ).encode()
        )
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.receive_some()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise Closed(f"the server refused the upgrade: {lines[0]}")
        fields = (line.partition(":") for line in lines[1:])
        headers = {name.strip().lower(): value.strip() for name, _, value in fields}
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            raise Closed("the server's Sec-WebSocket-Accept is wrong")

    def receive_some(self):
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise Closed("the server closed the connection")
        return chunk

    def read_exactly(self, count):
        while len(self.buffer) < count:
            self.buffer += self.receive_some()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, message):
        self.send_frame(0x1, json.dumps(message).encode())

    def receive(self):
        message = b""
        while True:
            first, second = self.read_exactly(2)
            fin, opcode, length = first & 0x80, first & 0x0F, second & 0x7F
            if length == 126:
                (length,) = struct.unpack(">H", self.read_exactly(2))
            elif length == 127:
                (length,) = struct.unpack(">Q", self.read_exactly(8))
            mask = self.read_exactly(4) if second & 0x80 else None
            payload = self.read_exactly(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 0
                raise Closed(f"the server closed the connection: {code} {payload[2:].decode()}")
            if opcode == 0x9:
                self.send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if fin:
                return json.loads(message)

    def close(self):
        """Says goodbye and waits for the server's (a second at most), as RFC 6455 asks."""
        try:
            self.send_frame(0x8, struct.pack(">H", 1000))
            self.sock.settimeout(1)
            while True:
                self.receive()
        except (Closed, OSError):
            pass
        finally:
            self.sock.close()


def connect(port, wait, password):
    deadline = time.monotonic() + wait
    while True:
        try:
            ws = WebSocket(port, timeout=60)
            break
        except (ConnectionRefusedError, ConnectionResetError, Closed):
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.05)
    hello = ws.receive()
    identify = {"rpcVersion": 1, "eventSubscriptions": 0}
    challenge = hello["d"].get("authentication")
    if challenge:
        secret = base64.b64encode(
            hashlib.sha256((password + challenge["salt"]).encode()).digest()
        ).decode()
        identify["authentication"] = base64.b64encode(
            hashlib.sha256((secret + challenge["challenge"]).encode()).digest()
        ).decode()
    ws.send({"op": 1, "d": identify})
    identified = ws.receive()
    if identified.get("op") != 2:
        raise Closed(f"not identified: {identified}")
    return ws


def answer(result, save):
    status = result.get("requestStatus", {})
    data = result.get("responseData")
    if save and data and "imageData" in data:
        with open(save, "wb") as picture:
            picture.write(base64.b64decode(data.pop("imageData").split(",", 1)[1]))
        data["saved"] = save
    return {
        "requestType": result.get("requestType"),
        "ok": status.get("result", False),
        "code": status.get("code"),
        "comment": status.get("comment"),
        "data": data,
    }


def main():
    arguments = sys.argv[1:]
    if not arguments or not arguments[0].isdigit():
        sys.exit("usage: obs-request.py PORT [--wait SECONDS] [--password PASSWORD] < STEPS")
    port = int(arguments[0])
    options = dict(zip(arguments[1::2], arguments[2::2]))
    wait = float(options.get("--wait", 0))
    password = options.get("--password", "")
    steps = json.load(sys.stdin)
    try:
        ws = connect(port, wait, password)
        answers = []
        for number, step in enumerate(steps):
            identifier = str(number)
            if "batch" in step:
                ws.send({
                    "op": 8,
                    "d": {
                        "requestId": identifier,
                        "haltOnFailure": False,
                        "executionType": step.get("executionType", 0),
                        "requests": [
                            {k: v for k, v in request.items() if k != "save"}
                            for request in step["batch"]
                        ],
                    },
                })
                reply = ws.receive()
                while reply.get("op") != 9 or reply["d"].get("requestId") != identifier:
                    reply = ws.receive()
                answers.append([
                    answer(result, request.get("save"))
                    for request, result in zip(step["batch"], reply["d"]["results"])
                ])
            else:
                ws.send({
                    "op": 6,
                    "d": {
                        "requestType": step["requestType"],
                        "requestId": identifier,
                        "requestData": step.get("requestData", {}),
                    },
                })
                reply = ws.receive()
                while reply.get("op") != 7 or reply["d"].get("requestId") != identifier:
                    reply = ws.receive()
                answers.append(answer(reply["d"], step.get("save")))
        ws.close()
    except (OSError, Closed, ValueError, KeyError) as error:
        sys.exit(f"obs-request: {type(error).__name__}: {error}")
    json.dump(answers, sys.stdout)
    print()


if __name__ == "__main__":
    main()
