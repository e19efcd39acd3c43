import assert from "node:assert/strict";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { clipboardImage, droppedImage, imageAt, unquoted } from "./image_command.ts";

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  ),
  (c) => c.charCodeAt(0),
);

Deno.test("a dropped path: quotes, file:// and backslash escapes are taken off", () => {
  assert.equal(unquoted("'/tmp/my shot.png'"), "/tmp/my shot.png");
  assert.equal(unquoted('"/tmp/a.png"'), "/tmp/a.png");
  assert.equal(unquoted("/tmp/my\\ shot.png"), "/tmp/my shot.png");
  assert.equal(unquoted("file:///tmp/my%20shot.png"), "/tmp/my shot.png");
});

Deno.test("a whole prompt that names an existing image is that image; other prompts are not", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi-drop-" });
  try {
    const shot = join(dir, "my shot.png");
    await Deno.writeFile(shot, PNG);
    await Deno.writeTextFile(join(dir, "fake.png"), "not an image");
    const dropped = await droppedImage(`'${shot}' `);
    assert.equal(dropped?.name, shot);
    assert.equal(dropped?.block.type, "image");
    assert.equal(await droppedImage(`look at ${shot}`), null);
    assert.equal(await droppedImage(join(dir, "gone.png")), null);
    assert.equal(await droppedImage(join(dir, "fake.png")), null);
    await assert.rejects(
      imageAt(join(dir, "fake.png")),
      /it is not a PNG, JPEG, GIF or WebP image/,
    );
    await assert.rejects(imageAt(join(dir, "gone.png")), /Cannot attach ".*gone\.png"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("/image without a path reads the clipboard through the first program found, or says what to install", async () => {
  const bin = await Deno.makeTempDir({ prefix: "oi-clip-bin-" });
  try {
    await assert.rejects(
      clipboardImage({ PATH: bin }, "linux"),
      (e: Error) =>
        e instanceof UserError &&
        /No clipboard program found \(looked for wl-paste, xclip\)/.test(e.message) &&
        /install wl-clipboard \(Wayland\) or xclip \(X11\)/.test(e.hint ?? ""),
    );
    await assert.rejects(clipboardImage({ PATH: bin }, "darwin"), /looked for pngpaste, osascript/);
    const png = join(bin, "shot.png");
    await Deno.writeFile(png, PNG);
    const xclip = join(bin, "xclip");
    await Deno.writeTextFile(
      xclip,
      `#!/bin/sh\n[ "$*" = "-selection clipboard -t image/png -o" ] && cat '${png}'\n`,
    );
    await Deno.chmod(xclip, 0o755);
    const image = await clipboardImage({ PATH: `${bin}:/usr/bin:/bin` }, "linux");
    assert.equal(image.block.type === "image" && image.block.mime, "image/png");
    await Deno.writeTextFile(xclip, "#!/bin/sh\nexit 1\n");
    await assert.rejects(
      clipboardImage({ PATH: `${bin}:/usr/bin:/bin` }, "linux"),
      /The clipboard holds no image \(xclip found none\)/,
    );
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
});
