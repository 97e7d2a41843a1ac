import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePorts } from "../support/chaos/env.ts";

/**
 * The own-Redis tests (cluster, pair, chaos) start servers on ports the harness picks. CI once had
 * a 3-node test cluster fail with EEXIST: two picks returned one port (each was closed before the
 * next bind, and the kernel may hand a just-closed port out again: about 2 in 3,000 triples here).
 */
describe("freePorts", () => {
  it("hands out distinct ports in every call (2,000 triples)", async () => {
    for (let i = 0; i < 2_000; i++) {
      const ports = await freePorts(3);
      expect(new Set(ports).size, `call ${i}: ${ports.join(", ")}`).toBe(3);
    }
  });

  it("for a cluster node: the port at most 55,535 and its bus port (+10,000) free", async () => {
    for (let i = 0; i < 200; i++) {
      const ports = await freePorts(3, { clusterBus: true });
      expect(new Set(ports).size).toBe(3);
      for (const p of ports) expect(p).toBeLessThanOrEqual(55_535);
    }
  });

  it("returns ports that are free again: a server can listen on each", async () => {
    for (const port of await freePorts(3, { clusterBus: true })) {
      for (const p of [port, port + 10_000]) {
        const s = createServer();
        await new Promise<void>((ok, fail) => {
          s.once("error", fail);
          s.listen(p, "127.0.0.1", ok);
        });
        await new Promise((done) => s.close(done));
      }
    }
  });
});
