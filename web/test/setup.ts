// Matchers that read as what a person sees: toHaveTextContent, toBeDisabled, toBeInTheDocument.
import '@testing-library/jest-dom/jest-globals';
