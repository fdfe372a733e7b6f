import { useState } from 'react';
import { Button } from 'react-aria-components';
import { Field } from './form';

/** An approver's decision: a comment (required to reject) and the buttons; the caller sends it. */
export function DecisionForm(props: {
  pending: boolean;
  approve: (comment: string) => void;
  reject?: (comment: string) => void;
}) {
  const [comment, setComment] = useState('');
  return (
    <div className="decision">
      <Field
        name="comment"
        label={props.reject ? 'Comment (required to reject)' : 'Comment'}
        value={comment}
        onChange={setComment}
      />
      <div className="row">
        <Button className="button primary" isDisabled={props.pending} onPress={() => props.approve(comment)}>
          Approve
        </Button>
        {props.reject && (
          <Button className="button danger" isDisabled={props.pending} onPress={() => props.reject!(comment)}>
            Reject
          </Button>
        )}
      </div>
    </div>
  );
}
