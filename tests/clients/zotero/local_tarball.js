// Point one dependency of a package (its package.json and package-lock.json) at a local
// tarball, with the tarball's integrity, so that `npm ci` installs it from there.
// Usage: node local_tarball.js PACKAGE_DIR NAME TARBALL
"use strict";
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");

const [folder, name, tarball] = process.argv.slice(2);
const spec = `file:${path.resolve(tarball)}`;
const integrity =
	"sha512-" + crypto.createHash("sha512").update(fs.readFileSync(tarball)).digest("base64");

function edit(file, change) {
	const where = path.join(folder, file);
	const json = JSON.parse(fs.readFileSync(where, "utf8"));
	change(json);
	fs.writeFileSync(where, JSON.stringify(json, null, "\t") + "\n");
}

edit("package.json", (json) => {
	json.dependencies[name] = spec;
});
edit("package-lock.json", (lock) => {
	lock.packages[""].dependencies[name] = spec;
	Object.assign(lock.packages[`node_modules/${name}`], { resolved: spec, integrity });
	if (lock.dependencies) {
		// lockfileVersion 2 also keeps npm 6's section.
		lock.dependencies[name] = { version: spec, integrity };
	}
});
