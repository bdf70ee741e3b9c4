import { useCombobox } from 'downshift';
import { useMemo } from 'react';
import type { Project } from '../schemas';
import { choiceLabel, chosenProject, type ProjectChoice } from './project-choice';
import { FieldError, invalidProps } from '../forms/field-error';

interface Props {
  projects: Project[];
  inputValue: string;
  onInputValueChange: (value: string) => void;
  choice: ProjectChoice | null;
  onChoiceChange: (choice: ProjectChoice | null) => void;
  error: string | null;
}

/**
 * The project of a new run: a WAI-ARIA combobox with a listbox popup (downshift's useCombobox). Typing filters the
 * projects; "Create project “…”" is an option only once a name is typed that no project has, so ArrowDown on an empty
 * list opens an empty listbox instead of landing on a creation; Escape closes it, Enter picks the highlighted option.
 * An empty field is no project.
 */
export function ProjectPicker({ projects, inputValue, onInputValueChange, choice, onChoiceChange, error }: Props) {
  const items = useMemo<ProjectChoice[]>(() => {
    const typed = inputValue.trim();
    const needle = typed.toLowerCase();
    const matching = projects.filter(
      (p) => needle === '' || p.name.toLowerCase().includes(needle) || p.slug.includes(needle),
    );
    const exact = projects.some((p) => p.name.toLowerCase() === needle || p.slug === needle);
    const listed: ProjectChoice[] = matching.map((project) => ({ kind: 'project', project }));
    return typed && !exact ? [...listed, { kind: 'create', name: typed }] : listed;
  }, [projects, inputValue]);

  const { isOpen, getLabelProps, getInputProps, getMenuProps, getItemProps, getToggleButtonProps } =
    useCombobox<ProjectChoice>({
      items,
      inputId: 'run-project',
      itemToString: choiceLabel,
      itemToKey: (item) => (item ? `${item.kind}:${item.kind === 'project' ? item.project.slug : item.name}` : null),
      // The text stays downshift's own: a value controlled from here arrives a render late, and a fast typist's
      // next key would be dropped. The parent keeps a copy for filtering and validation.
      selectedItem: choice,
      // Typing over a choice does not clear it here (a controlled selection set to null would also empty the field):
      // the page counts a choice only while the field still reads its name (`chosenProject`).
      onInputValueChange: ({ inputValue: value }) => onInputValueChange(value),
      onSelectedItemChange: ({ selectedItem }) => onChoiceChange(selectedItem ?? null),
    });

  const showEmpty = isOpen && items.length === 0;
  return (
    <div className="combobox">
      <label {...getLabelProps()}>Project</label>
      <div className="combobox-row">
        <input
          {...getInputProps({
            placeholder: projects.length > 0 ? 'No project (type to pick or create one)' : 'No project',
            ...invalidProps('run-project-error', error, 'run-project-hint'),
          })}
        />
        <button type="button" className="small secondary" {...getToggleButtonProps()} aria-label="Show projects">
          ▾
        </button>
      </div>
      <ul {...getMenuProps()} className="combobox-menu">
        {isOpen
          ? items.map((item, index) => (
              <li
                key={item.kind === 'project' ? item.project.slug : `create:${item.name}`}
                className={item.kind === 'create' ? 'create' : undefined}
                {...getItemProps({ item, index })}
              >
                {item.kind === 'project' ? (
                  <>
                    {item.project.name} <span className="hint">({item.project.slug})</span>
                  </>
                ) : (
                  <>Create project “{item.name}”</>
                )}
              </li>
            ))
          : null}
      </ul>
      {showEmpty ? (
        <p className="hint" role="status">
          {projects.length === 0 ? 'No projects yet: type a name to create one.' : 'No project matches.'}
        </p>
      ) : null}
      <p id="run-project-hint" className="hint">
        Leave empty for no project.{' '}
        {chosenProject(choice, inputValue, projects)?.kind === 'create'
          ? `“${choiceLabel(choice)}” is created when the run starts.`
          : ''}
      </p>
      <FieldError id="run-project-error" message={error} />
    </div>
  );
}
