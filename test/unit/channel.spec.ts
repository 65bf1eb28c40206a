import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { joinChannel, serveChannel, type ToCoordinator } from '../../run/channel';
import { tempDir } from '../support/temp';

/** The run's channel (run/channel.ts): a worker joins its coordinator, whatever the run's folder is called. */

for (const depth of ['a run folder of a usual length', 'a run folder too deep for a socket path (over 100 bytes)'])
  test(`a worker reaches the coordinator through ${depth}, and is told why it is refused`, async () => {
    const runDir = depth.startsWith('a run folder too deep') ? path.join(tempDir('channel-'), 'x'.repeat(90)) : tempDir('c-');
    mkdirSync(runDir, { recursive: true });
    const heard: ToCoordinator[] = [];
    const channel = await serveChannel(runDir, {
      hello: (project) => ({ refused: `no partner "${project}" in this run` }),
      message: (_link, message) => heard.push(message),
      closed: () => {},
      invalid: (problem) => heard.push({ type: 'leaving', pending: [problem] }),
    });
    try {
      await expect(joinChannel(runDir, 'nobody')).rejects.toThrow(`the run's coordinator refused this worker: no partner "nobody" in this run`);
    } finally {
      await channel.close();
    }
  });
