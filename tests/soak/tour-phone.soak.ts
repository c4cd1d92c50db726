/** The accessibility tour at 1366×900 and on a 390×844 phone: see accessibility-tour.ts. This file: the phone. */
import { accessibilityTour } from './accessibility-tour';

accessibilityTour('phone');
