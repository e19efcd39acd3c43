/**
 * Output files never follow links (issue 28, R4-2): `exec -o`, `exec review -o` and
 * `--trajectory` onto links a repository committed, through the CLI with the fake provider.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, run, tempDirs } from "./_harness_env.ts";

const ANSWER = "The answer.";

Deno.test("exec -o, exec review -o and --trajectory refuse committed links; plain paths get the answer", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const outside = await dirs.add(Deno.realPath(await Deno.makeTempDir({ prefix: "oi-outside-" })));
  const victim = join(outside, "victim.txt");
  await Deno.writeTextFile(victim, "keep\n");
  await Deno.symlink(victim, join(repo, "answer.md"));
  await Deno.symlink(outside, join(repo, "out"));
  await run("git", ["add", "answer.md", "out"], repo);
  const who = ["-c", "user.email=t@example.com", "-c", "user.name=t"];
  await run("git", [...who, "commit", "-qm", "links"], repo);
  await using fake = await startFakeProvider(
    Array.from({ length: 4 }, () => ({ reply: { text: ANSWER } })),
  );
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const exec = (args: string[]) => interpreter(["exec", ...args], { cwd: repo, home });

  // Control: plain paths, one in a folder that does not exist yet.
  const plain = await exec(["-o", "plain.md", "--trajectory", "traj/t.json", "say it"]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.stdout, `${ANSWER}\n`);
  assert.equal(await Deno.readTextFile(join(repo, "plain.md")), ANSWER);
  assert.equal(
    JSON.parse(await Deno.readTextFile(join(repo, "traj", "t.json"))).agent.name,
    "interpreter",
  );

  const link = await exec(["-o", "answer.md", "say it"]);
  assert.equal(link.code, 1, link.stderr);
  assert.equal(link.stdout, `${ANSWER}\n`, "the answer still reaches stdout");
  assert.match(
    link.stderr,
    new RegExp(
      `error: Cannot write the last message to "[^"]*/answer\\.md": it is a symbolic link ` +
        `to "${victim}"; output files are never written through links`,
    ),
  );
  assert.match(link.stderr, /hint: Pass another path, or remove the link \("[^"]*\/answer\.md"\)/);

  const folder = await exec(["--trajectory", "out/t.json", "say it"]);
  assert.equal(folder.code, 1, folder.stderr);
  assert.match(
    folder.stderr,
    new RegExp(
      `error: Cannot write the trajectory to "[^"]*/out/t\\.json": the folder "[^"]*/out" ` +
        `on the way is a symbolic link to "${outside}"`,
    ),
  );

  const review = await interpreter(["exec", "review", "--commit", "HEAD", "-o", "answer.md"], {
    cwd: repo,
    home,
  });
  assert.equal(review.code, 1, review.stderr);
  assert.match(review.stderr, /error: Cannot write the last message to "[^"]*\/answer\.md"/);

  assert.equal(await Deno.readTextFile(victim), "keep\n");
  assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["victim.txt"]);
  assert.equal(fake.requests.length, 4);
});
