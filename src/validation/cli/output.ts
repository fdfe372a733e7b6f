import { once } from 'node:events';

/** Text to a stream in 64 KiB writes, waiting for the stream to drain so a slow reader bounds memory. */
export class BufferedOutput {
  private buffer = '';

  constructor(private readonly stream: NodeJS.WritableStream) {}

  async write(text: string): Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= 64 * 1024) await this.flush();
  }

  async flush(): Promise<void> {
    const text = this.buffer;
    this.buffer = '';
    if (text !== '' && !this.stream.write(text)) await once(this.stream, 'drain');
  }
}
