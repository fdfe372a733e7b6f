// Matchers that read as what a person sees: toHaveTextContent, toBeDisabled, toBeInTheDocument.
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { scaled } from '../../test/helpers/time-scale';

// findBy* waits for what the screen shows after the API answers: a deadline, not a sleep (a busy machine needs more).
configure({ asyncUtilTimeout: scaled(5000) });
