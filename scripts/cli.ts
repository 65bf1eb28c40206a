#!/usr/bin/env node
// `npx partner-certify <partner> [options]` certifies a partner of this folder (scripts/certify.ts);
// `npx partner-certify init <name> …` writes its profile (scripts/init.ts); `npx partner-certify verify …`
// checks a signed certificate (scripts/verify.ts); `npx partner-certify population …` tells how a population of users
// will fare (scripts/population.ts). Each script runs when it is loaded: only the one asked
// for is, hence require, not import.
/* eslint-disable @typescript-eslint/no-require-imports */
const [command] = process.argv.slice(2);
if (command === 'init') {
  require('./init');
} else if (command === 'population') {
  require('./population');
} else if (command === 'verify') {
  process.argv.splice(2, 1);
  require('./verify');
} else {
  require('./certify');
}
