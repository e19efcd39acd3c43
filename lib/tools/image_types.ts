/**
 * The shape of a tool result that is an image (see `image_view.ts`); types only, importing
 * nothing, so `types.ts` can name it.
 */
/** A tool result that is an image: the note the model reads, then the image unless left out. */
export interface ImageResult {
  /** Relative to the workspace when inside it. */
  path: string;
  absolutePath: string;
  mime: string;
  bytes: number;
  /** One line: which file, its format and size; or why the image is not shown. */
  imageNote: string;
  /** The picture, absent for a model that takes no images. */
  image?: { mime: string; base64: string };
}
