#!/usr/bin/env python3
"""Loopback servers for the URL tests, each on an ephemeral port of 127.0.0.1 that it
writes to PORTFILE once it listens. The test stops it by its PID.

  httpd.py serve DIR PORTFILE [CERT KEY]   files of DIR over http (https with CERT and KEY)
  httpd.py hang PORTFILE                   accepts connections and never answers
  httpd.py answer BODYFILE PORTFILE        answers every POST with BODYFILE's bytes (a
                                           broken etcd gateway)
"""
import http.server
import os
import socket
import ssl
import sys
import time


def ready(portfile, port):
    tmp = portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, portfile)


def serve(root, portfile, cert=None, key=None):
    os.chdir(root)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    if cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    ready(portfile, srv.server_address[1])
    srv.serve_forever()


def hang(portfile):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    ready(portfile, s.getsockname()[1])
    held = []
    while True:
        c, _ = s.accept()
        held.append(c)  # never read, never answered, never closed
        time.sleep(0.01)


def answer(bodyfile, portfile):
    body = open(bodyfile, "rb").read()

    class Fixed(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Fixed)
    ready(portfile, srv.server_address[1])
    srv.serve_forever()


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(*sys.argv[2:])
    elif sys.argv[1] == "answer":
        answer(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "hang":
        hang(sys.argv[2])
    else:
        sys.exit("usage: httpd.py serve DIR PORTFILE [CERT KEY] | hang PORTFILE | "
                 "answer BODYFILE PORTFILE")
