import type { Command } from 'commander';
import { CliError, EXIT } from '../lib/api-error';
import { subcommand } from '../lib/command-kit';

/** Every command path with its subcommands and long options, read from the program itself. */
function tree(command: Command, prefix: string[] = []): { path: string[]; words: string[] }[] {
  const words = [...command.commands.map((c) => c.name()), ...command.options.map((o) => o.long ?? '').filter(Boolean)];
  return [{ path: prefix, words }, ...command.commands.flatMap((c) => tree(c, [...prefix, c.name()]))];
}

function bash(program: Command): string {
  const cases = tree(program)
    .map(({ path, words }) => `    "${path.join(' ')}") words="${words.join(' ')}" ;;`)
    .join('\n');
  return `# delivery completion for bash: source <(delivery completion bash)
_delivery() {
  local cur path="" w
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do [[ $w == -* ]] || path="\${path:+$path }$w"; done
  local words=""
  case "$path" in
${cases}
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -F _delivery delivery
`;
}

function zsh(program: Command): string {
  return `#compdef delivery
# delivery completion for zsh: source <(delivery completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(program)}`;
}

function fish(program: Command): string {
  const lines = ['# delivery completion for fish: delivery completion fish | source', 'complete -c delivery -f'];
  for (const { path, words } of tree(program)) {
    const condition =
      path.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${path[path.length - 1]}`;
    for (const word of words) {
      if (word.startsWith('--')) lines.push(`complete -c delivery -n '${condition}' -l ${word.slice(2)}`);
      else lines.push(`complete -c delivery -n '${condition}' -a ${word}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function registerCompletion(program: Command): void {
  subcommand(program, 'completion', 'Print a shell completion script (bash, zsh or fish)', [
    'source <(delivery completion bash)',
    'delivery completion fish > ~/.config/fish/completions/delivery.fish',
  ])
    .argument('<shell>', 'bash, zsh or fish')
    .action((shell: string) => {
      const scripts: Record<string, (p: Command) => string> = { bash, zsh, fish };
      const script = scripts[shell];
      if (!script) throw new CliError(`no completion for "${shell}": use bash, zsh or fish`, EXIT.usage);
      process.stdout.write(script(program));
    });
}
