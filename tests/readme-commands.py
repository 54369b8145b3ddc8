#!/usr/bin/env python3
"""readme-commands.py README OUTDIR: the runnable examples of README.md.

The convention (README.md "Contents" states it): inside a fenced block
opened by ```console, a line starting with "$ " is a command; the lines
after it, up to the next command or the end of the block, are its output
as shown, abridged: a line "..." stands for lines left out, a line ending
in " ..." for the rest of a line.  Other blocks (indented synopses with
placeholders such as FILE...) are not run.

Writes OUTDIR/N.cmd (the command), OUTDIR/N.out (the output shown) and
OUTDIR/N.line (its line number in README), N counting from 1 in README's
order, and prints how many commands it found.
"""
import os
import sys


def main():
    readme, outdir = sys.argv[1], sys.argv[2]
    cmds = []
    cur = None
    in_console = in_fence = False
    with open(readme, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("```"):
                if in_fence:
                    in_fence = in_console = False
                else:
                    in_fence = True
                    in_console = line.strip() == "```console"
                cur = None
                continue
            if not in_console:
                continue
            if line.startswith("$ "):
                cur = [no, line[2:], []]
                cmds.append(cur)
            elif cur is not None:
                cur[2].append(line)
    if in_fence:
        sys.exit(f"{readme}: a ``` block is not closed")
    os.makedirs(outdir, exist_ok=True)
    for n, (no, cmd, out) in enumerate(cmds, 1):
        with open(f"{outdir}/{n}.cmd", "w") as f:
            f.write(cmd + "\n")
        with open(f"{outdir}/{n}.out", "w") as f:
            f.write("".join(l + "\n" for l in out))
        with open(f"{outdir}/{n}.line", "w") as f:
            f.write(f"{no}\n")
    print(len(cmds))


if __name__ == "__main__":
    main()
