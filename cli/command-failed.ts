/** A command that could not do what was asked, for a reason its message gives in full (the CLI prints it, exit 2). */
export class CommandFailed extends Error {
  override name = 'CommandFailed';
}
