import type { Project } from '../schemas';

/** What the picker holds: a listed project, a project to create with this name, or (null) no project. */
export type ProjectChoice = { kind: 'project'; project: Project } | { kind: 'create'; name: string };

export function choiceLabel(choice: ProjectChoice | null): string {
  if (!choice) return '';
  return choice.kind === 'project' ? choice.project.name : choice.name;
}

/**
 * The choice the field stands for: the picked one while the text still reads its name, else a project whose name or
 * slug the text is exactly (typed without picking), else none.
 */
export function chosenProject(choice: ProjectChoice | null, text: string, projects: Project[]): ProjectChoice | null {
  const typed = text.trim().toLowerCase();
  if (choice && choiceLabel(choice).toLowerCase() === typed) return choice;
  const named = projects.find((p) => p.name.toLowerCase() === typed || p.slug === typed);
  return named ? { kind: 'project', project: named } : null;
}
