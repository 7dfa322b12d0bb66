// The title and description fields of a run, shared by New run and Edit run. The title takes
// the dialog's first focus (Modal honours `data-autofocus`).
export function RunTextFields(props: {
  title: string;
  description: string;
  onTitle: (value: string) => void;
  onDescription: (value: string) => void;
  descriptionHint: string;
}) {
  return (
    <>
      <label className="field">
        <span>Title</span>
        <input
          name="title"
          value={props.title}
          onChange={(e) => props.onTitle(e.target.value)}
          required
          data-autofocus
        />
      </label>
      <label className="field">
        <span>
          Description <span className="muted">({props.descriptionHint})</span>
        </span>
        <textarea
          name="description"
          rows={4}
          value={props.description}
          onChange={(e) => props.onDescription(e.target.value)}
        />
      </label>
    </>
  );
}
