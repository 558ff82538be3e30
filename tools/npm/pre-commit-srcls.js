#!/usr/bin/env node
// The `srcls` of the language: node pre-commit hooks (.pre-commit-hooks.yaml): pre-commit
// installs the repository's package.json, whose dependency is the srcls npm package, and puts
// this on PATH; it runs that package's launcher, with the same arguments.
'use strict';
require('srcls/bin/srcls.js');
