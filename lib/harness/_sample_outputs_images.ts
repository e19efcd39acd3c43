/** Sample outputs of the image capabilities, for `SAMPLE_OUTPUTS` (see `_sample_outputs.ts`). */
import type { ImageResult } from "../tools/image_types.ts";

export const IMAGE_SAMPLE_OUTPUTS: Readonly<Record<string, readonly object[]>> = {
  "image.view": [
    {
      path: "shot.png",
      absolutePath: "/work/app/shot.png",
      mime: "image/png",
      bytes: 2048,
      imageNote: "[image: shot.png (image/png, 2KB)]",
      image: { mime: "image/png", base64: "iVBORw0KGgo=" },
    } satisfies ImageResult,
  ],
  "image.zoom": [
    {
      path: "shot.png",
      absolutePath: "/work/app/shot.png",
      mime: "image/png",
      bytes: 4096,
      imageNote: "[zoomed region (0,0)-(500,500) of shot.png: image 200x100, region 100x50, " +
        "view 1024x512]",
      image: { mime: "image/png", base64: "iVBORw0KGgo=" },
    } satisfies ImageResult,
  ],
};
