// Issue 39 item 3: a saved brain that changed is tested once after the save, so a customer
// learns at once that it cannot work (a refused address, a refused key) instead of at a
// visitor's first word. The save itself never waits on the test.
import type { Avatar } from '@parla/shared/schemas/avatar';
import { brainTestFailures, type BrainTestRequest } from '@parla/shared/schemas/brain-test';
import { AvatarEngine } from '@parla/shared/enums';
import { testBrain } from '../../brain/api/test-brain';
import { payloadFrom, valuesFromAvatar } from './editor-values';

/** What the brain is made of: a change here is worth a test. */
function brainOf(a: Avatar): string {
  return JSON.stringify([
    a.setupMode,
    a.nlpEngine,
    a.restEndPointURL,
    a.restApiKey,
    a.projectId,
    a.agentId,
    a.regionId,
    a.jsonKey,
    a.customData.agent_pipeline_config ?? null,
  ]);
}

export function brainChanged(before: Avatar | null, after: Avatar): boolean {
  return !!before && after.nlpEngine !== AvatarEngine.EchoTest && brainOf(before) !== brainOf(after);
}

export const brainSaveWarning = (message: string) => `Saved, but the test of this brain failed: ${message}`;

/** The test's failure message for the avatar as saved, or null when it worked (or could not run). */
export async function brainFailureAfterSave(saved: Avatar): Promise<string | null> {
  try {
    const result = await testBrain(payloadFrom(valuesFromAvatar(saved)) as BrainTestRequest);
    return result.ok ? null : brainTestFailures(result).join(' ');
  } catch {
    return null;
  }
}
