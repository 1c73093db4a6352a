#!/usr/bin/env python3
"""Encodes OTLP/JSON profiles as the protobuf of the same message.

usage: encode.py PROTODIR < in.json > out.pb

PROTODIR holds the Python that `protoc --python_out` made of proto/
(opentelemetry-proto v1.10.0); Google's protobuf library (Debian's
python3-protobuf) parses the JSON strictly, as the official JSON mapping
says, and writes the binary. A hexadecimal profileId, as the
Collector's JSON has it, is made base64 first, as the mapping wants.
"""
import base64
import json
import sys

sys.path.insert(0, sys.argv[1])
from google.protobuf import json_format  # noqa: E402
from opentelemetry.proto.collector.profiles.v1development import (  # noqa: E402
    profiles_service_pb2)

doc = json.load(sys.stdin)
for rp in doc.get('resourceProfiles', []):
    for sp in rp.get('scopeProfiles', []):
        for p in sp.get('profiles', []):
            pid = p.get('profileId')
            if pid and len(pid) == 32 and all(c in '0123456789abcdef'
                                              for c in pid):
                p['profileId'] = base64.b64encode(bytes.fromhex(pid)).decode()
msg = json_format.ParseDict(doc, profiles_service_pb2.ExportProfilesServiceRequest())
sys.stdout.buffer.write(msg.SerializeToString())
