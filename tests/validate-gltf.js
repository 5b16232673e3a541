#!/usr/bin/env node
// validate-gltf.js FILE.glb: runs the Khronos glTF validator on FILE.glb and
// prints its report. Exit status: 0 no errors or warnings, 1 findings,
// 2 the file could not be read, 77 the validator is not installed (the test
// is then skipped).
//
// The validator is the npm package gltf-validator (not packaged by Debian).
// Install it once, e.g. `npm install -g gltf-validator` (Debian: apt-get
// install npm first), or into any folder and point TERRAIN_GLTF_VALIDATOR at
// its node_modules/gltf-validator.
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

function loadValidator() {
  const candidates = [];
  if (process.env.TERRAIN_GLTF_VALIDATOR)
    candidates.push(process.env.TERRAIN_GLTF_VALIDATOR);
  candidates.push('gltf-validator');
  try {
    const root = execFileSync('npm', ['root', '-g'], { stdio: ['ignore', 'pipe', 'ignore'] });
    candidates.push(path.join(root.toString().trim(), 'gltf-validator'));
  } catch (e) {
    // npm is not installed: only the candidates above.
  }
  for (const candidate of candidates) {
    try {
      return require(candidate);
    } catch (e) {
      // Try the next one.
    }
  }
  return null;
}

const validator = loadValidator();
if (validator === null) {
  console.log('gltf-validator is not installed');
  process.exit(77);
}

let asset;
try {
  asset = fs.readFileSync(process.argv[2]);
} catch (e) {
  console.error(String(e));
  process.exit(2);
}

validator.validateBytes(new Uint8Array(asset), { uri: path.basename(process.argv[2]) })
  .then((report) => {
    console.log(JSON.stringify(report, null, 2));
    const issues = report.issues;
    process.exit(issues.numErrors === 0 && issues.numWarnings === 0 ? 0 : 1);
  }, (error) => {
    console.error(String(error));
    process.exit(1);
  });
