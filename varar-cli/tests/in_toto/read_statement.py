"""Read an in-toto attestation with the in-toto project's own library.

An independent reader of what `cargo varar attest` writes: the Statement is
parsed strictly into the in-toto Statement v1 protobuf (unknown fields are
refused), validated by the library, and its predicate parsed strictly into
the test-result v0 predicate. Prints what it read as one JSON object; exits
1 with the reason when the file is not such a statement.

Needs the PyPI package `in-toto-attestation` (`.ci/run` installs it).
"""

import json
import sys

from google.protobuf import json_format
from in_toto_attestation.predicates.test_result.v0 import test_result_pb2
from in_toto_attestation.v1 import statement_pb2
from in_toto_attestation.v1.resource_descriptor import ResourceDescriptor
from in_toto_attestation.v1.statement import Statement

PREDICATE_TYPE = "https://in-toto.io/attestation/test-result/v0.1"


def main(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    pb = json_format.Parse(text, statement_pb2.Statement())
    statement = Statement.copy_from_pb(pb)
    statement.validate()
    if pb.predicate_type != PREDICATE_TYPE:
        raise ValueError("not a test-result predicate: " + pb.predicate_type)
    predicate = json_format.ParseDict(
        json_format.MessageToDict(pb.predicate), test_result_pb2.TestResult()
    )
    for rd in predicate.configuration:
        ResourceDescriptor.copy_from_pb(rd).validate()
    if predicate.result not in ("PASSED", "WARNED", "FAILED"):
        raise ValueError("unknown result: " + predicate.result)
    print(
        json.dumps(
            {
                "type": pb.type,
                "subjects": {s.name: s.digest["sha256"] for s in pb.subject},
                "result": predicate.result,
                "configuration": {
                    c.name: c.digest["sha256"] for c in predicate.configuration
                },
                "passed": list(predicate.passed_tests),
                "warned": list(predicate.warned_tests),
                "failed": list(predicate.failed_tests),
            },
            sort_keys=True,
        )
    )


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except Exception as e:  # the reason is the output
        print("not a test-result statement: %s" % e, file=sys.stderr)
        sys.exit(1)
