/** Pixel checks of what a video surface shows (live, playback, a pulled recording). */
import type { Locator } from 'playwright-core';

export interface PixelSample {
  /** Mean brightness (0–255) over every pixel: a black surface is near 0. */
  mean: number;
  /** The red channel of about 400 evenly spaced pixels: two samples differ when the picture moved. */
  print: number[];
}

/** Screenshots the element and samples its pixels in the page (the page decodes the PNG). */
export async function samplePixels(surface: Locator): Promise<PixelSample> {
  const png = (await surface.screenshot()).toString('base64');
  return surface.page().evaluate(async (png) => {
    const bmp = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const g = c.getContext('2d')!;
    g.drawImage(bmp, 0, 0);
    const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
    let sum = 0;
    const print: number[] = [];
    const step = Math.max(4, Math.floor(d.length / 4 / 400) * 4);
    for (let i = 0; i < d.length; i += 4) sum += d[i]! + d[i + 1]! + d[i + 2]!;
    for (let i = 0; i < d.length; i += step) print.push(d[i]!);
    return { mean: sum / (d.length / 4) / 3, print };
  }, png);
}
