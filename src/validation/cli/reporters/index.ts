import type { OutputFormat } from '../../cli-args';
import { JsonReporter } from './json';
import { JunitReporter } from './junit';
import type { Reporter } from './reporter';
import { SarifReporter } from './sarif';
import { TapReporter } from './tap';
import { TextReporter } from './text';

export function reporterFor(format: OutputFormat, options: { colour: boolean; toolVersion: string }): Reporter {
  switch (format) {
    case 'json':
      return new JsonReporter();
    case 'junit':
      return new JunitReporter();
    case 'tap':
      return new TapReporter();
    case 'sarif':
      return new SarifReporter(options.toolVersion);
    case 'text':
      return new TextReporter(options.colour);
  }
}
