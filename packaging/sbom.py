#!/usr/bin/env python3
"""The release's SBOM: an SPDX 2.3 JSON document of the crates the shipped
binaries are built from, written to stdout.

    python3 packaging/sbom.py VERSION ARCHIVE...

The archives (routerctl-VERSION-TARGET.tar.gz or .zip, as
packaging/archive.sh names them) say which targets ship; the crates are
those `cargo build --locked --release` compiles for those targets: the
package, and what its normal and build dependencies reach for each target,
as `cargo tree --target` resolves them (licenses and sources from cargo
metadata). Dev-dependencies are left out, and so are the lock files of
bench/ and fuzz/, which build nothing that ships.
A crate linked in is `DEPENDS_ON`; one only a build script uses is a
`BUILD_DEPENDENCY_OF`. Each crate from crates.io carries its SHA-256 from
Cargo.lock and its purl. `created` is SOURCE_DATE_EPOCH when set (the
release workflow sets the tagged commit's time), so the same commit gives
the same document.
"""

import datetime
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRATES_IO = "registry+https://github.com/rust-lang/crates.io-index"


def fail(message):
    print(f"sbom.py: {message}", file=sys.stderr)
    sys.exit(2)


def targets_of(version, archives):
    """The target of each archive, checked to be of this version."""
    targets = []
    for archive in archives:
        name = Path(archive).name
        prefix = f"routerctl-{version}-"
        if not name.startswith(prefix) or not (name.endswith(".tar.gz") or name.endswith(".zip")):
            fail(f"{name} is not a release archive of {version} (routerctl-{version}-TARGET.tar.gz or .zip)")
        target = name[len(prefix):].removesuffix(".tar.gz").removesuffix(".zip")
        if target not in targets:
            targets.append(target)
    if not targets:
        fail("no archive given: the SBOM describes the targets the release ships")
    return targets


def spdx_id(name, version):
    """An SPDX element id: letters, digits, `.` and `-` only."""
    return "SPDXRef-Package-" + re.sub(r"[^A-Za-z0-9.-]", "-", f"{name}-{version}")


def license_expression(text):
    """Cargo's license field as an SPDX expression (`/` is cargo's old OR)."""
    if not text:
        return "NOASSERTION"
    return " OR ".join(part.strip() for part in text.split("/"))


def tree(target, edges):
    """`cargo tree`'s lines for the target: (depth, (name, version))."""
    out = subprocess.run(
        ["cargo", "tree", "--locked", "-e", edges, "--target", target, "--prefix", "depth", "--format", "{p}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    lines = []
    for line in out.splitlines():
        found = re.match(r"^(\d+)(\S+) v(\S+)", line)
        if found:
            lines.append((int(found[1]), (found[2], found[3])))
    return lines


def tree_edges(target, edges):
    """The (dependent, dependency) pairs of cargo tree's tree."""
    pairs, parents = set(), []
    for depth, package in tree(target, edges):
        del parents[depth:]
        if parents:
            pairs.add((parents[-1], package))
        parents.append(package)
    return pairs


def root_of_tree(target):
    """The package itself, for a tree with no edges."""
    return tree(target, "normal")[0][1]


def main(argv):
    if len(argv) < 3:
        fail("usage: sbom.py VERSION ARCHIVE...")
    version, archives = argv[1], argv[2:]
    targets = targets_of(version, archives)

    # What cargo builds for each target, as `cargo tree` resolves it
    # (features unified as the build unifies them, not as cargo
    # metadata's one graph for every target and the dev-dependencies):
    # the edges of normal and build dependencies, and which of them are
    # normal (linked in).
    edges, linked = set(), set()
    for target in targets:
        edges |= tree_edges(target, "normal,build")
        linked |= tree_edges(target, "normal")
    reached = {package for edge in edges for package in edge} or {root_of_tree(targets[0])}

    metadata = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--locked", "--format-version", "1"], cwd=ROOT, check=True, capture_output=True
        ).stdout
    )
    with open(ROOT / "Cargo.lock", "rb") as lock:
        checksums = {
            (p["name"], p["version"]): p["checksum"]
            for p in tomllib.load(lock)["package"]
            if "checksum" in p
        }
    packages = {(p["name"], p["version"]): p for p in metadata["packages"]}
    root_package = next(p for p in metadata["packages"] if p["id"] == metadata["resolve"]["root"])
    root = (root_package["name"], root_package["version"])
    if root[1] != version:
        fail(f"the archives are of {version}, Cargo.toml's version is {root[1]}")
    missing = reached - packages.keys()
    if missing:
        fail(f"cargo tree names packages cargo metadata does not: {sorted(missing)}")
    edges = {(source, dep, (source, dep) in linked) for source, dep in edges}

    def element(key):
        return spdx_id(*key)

    repository = root_package["repository"]
    described = []
    for package_id in sorted(reached):
        p = packages[package_id]
        entry = {
            "SPDXID": element(package_id),
            "name": p["name"],
            "versionInfo": p["version"],
            "downloadLocation": "NOASSERTION",
            "filesAnalyzed": False,
            "licenseConcluded": "NOASSERTION",
            "licenseDeclared": license_expression(p.get("license")),
            "copyrightText": "NOASSERTION",
            "externalRefs": [
                {
                    "referenceCategory": "PACKAGE-MANAGER",
                    "referenceType": "purl",
                    "referenceLocator": f"pkg:cargo/{p['name']}@{p['version']}",
                }
            ],
            "primaryPackagePurpose": "APPLICATION" if package_id == root else "LIBRARY",
        }
        if p.get("source") == CRATES_IO:
            entry["downloadLocation"] = f"https://crates.io/api/v1/crates/{p['name']}/{p['version']}/download"
            checksum = checksums.get((p["name"], p["version"]))
            if checksum:
                entry["checksums"] = [{"algorithm": "SHA256", "checksumValue": checksum}]
        elif package_id == root and repository:
            entry["downloadLocation"] = f"git+{repository}@v{version}"
        described.append(entry)

    relationships = [
        {"spdxElementId": "SPDXRef-DOCUMENT", "relationshipType": "DESCRIBES", "relatedSpdxElement": element(root)}
    ]
    for source, dep, is_linked in sorted(edges):
        if is_linked:
            relationships.append(
                {"spdxElementId": element(source), "relationshipType": "DEPENDS_ON", "relatedSpdxElement": element(dep)}
            )
        else:
            relationships.append(
                {
                    "spdxElementId": element(dep),
                    "relationshipType": "BUILD_DEPENDENCY_OF",
                    "relatedSpdxElement": element(source),
                }
            )

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    created = datetime.datetime.fromtimestamp(int(epoch) if epoch else datetime.datetime.now().timestamp(), datetime.UTC)
    document = {
        "spdxVersion": "SPDX-2.3",
        "dataLicense": "CC0-1.0",
        "SPDXID": "SPDXRef-DOCUMENT",
        "name": f"routerctl-{version}",
        "documentNamespace": f"{repository}/releases/download/v{version}/routerctl-{version}.spdx.json",
        "creationInfo": {
            "created": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "creators": [f"Tool: routerctl-packaging-sbom-{version}"],
            "comment": "The crates cargo builds for the targets " + ", ".join(targets) + "; no dev-dependencies.",
        },
        "packages": described,
        "relationships": relationships,
    }
    json.dump(document, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
