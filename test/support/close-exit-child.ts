/**
 * A script that uses one way in (its name the first argument), with a live
 * journal tail and a request held in a fault's delay open, closes the
 * sandbox, and then must exit by itself: nothing of the sandbox may keep
 * the event loop alive. It never calls `process.exit`.
 */
import { heldInDelay, openWay, WAY_NAMES, type WayName } from './ways-in.js';

const name = process.argv[2] as WayName;
if (!WAY_NAMES.includes(name)) throw new Error(`no way in named ${name}`);
const way = await openWay(name);
await way.workspace.faults.add({ operationId: 'listPets', latencyMs: 60_000 });
const tail = await way.stream();
const delayed = way.send('/v1/pets');
await heldInDelay(way.workspace, 10_000);
await way.close();
const answer = await delayed;
await answer.ended;
await tail.ended;
console.log(`${name} closed: ${answer.status}, tail ended`);
